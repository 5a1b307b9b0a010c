"""DocuSign's error shape: every error carries its errorCode and message (`ENVELOPE_CANNOT_VOID_INVALID_STATE: Only
envelopes in the 'Sent' or 'Delivered' states may be voided.`)."""

from __future__ import annotations

from envfactory_gym import Conflict, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.errors import ToolError

NOT_SIGNED_IN = (
    "AUTHORIZATION_INVALID_TOKEN: The access token provided is expired, revoked or malformed. Sign in first."
)
NO_ENVELOPE = "ENVELOPE_DOES_NOT_EXIST: The envelope specified either does not exist or you have no rights to it."
NO_TEMPLATE = "TEMPLATE_ID_INVALID: Invalid template ID."
NO_RECIPIENT = "INVALID_RECIPIENT_ID: A recipient ID does not exist in the envelope."


def docusign_error(kind: type[ToolError], code: str, message: str) -> ToolError:
    """An error of the runtime's `kind` worded as DocuSign's: errorCode, then message."""
    return kind(f"{code}: {message}")


def lacks_permission(detail: str = "") -> ToolError:
    """USER_LACKS_PERMISSIONS: the signed-in user's permission profile does not allow the action."""
    message = "This user lacks sufficient permissions to access this resource."
    return docusign_error(PermissionDenied, "USER_LACKS_PERMISSIONS", f"{message} {detail}".strip())


def invalid_status(detail: str) -> ToolError:
    """ENVELOPE_INVALID_STATUS: the envelope's status does not allow the action."""
    return docusign_error(Conflict, "ENVELOPE_INVALID_STATUS", f"Invalid envelope status. {detail}")


def cannot_void(status: str) -> ToolError:
    """ENVELOPE_CANNOT_VOID_INVALID_STATE: only sent or delivered envelopes can be voided."""
    return docusign_error(
        Conflict,
        "ENVELOPE_CANNOT_VOID_INVALID_STATE",
        f"Only envelopes in the 'Sent' or 'Delivered' states may be voided. This envelope is '{status}'.",
    )


def incomplete(detail: str) -> ToolError:
    """ENVELOPE_IS_INCOMPLETE: the envelope cannot be sent as it is."""
    return docusign_error(
        InvalidRequest,
        "ENVELOPE_IS_INCOMPLETE",
        f"The Envelope is not Complete. A Complete Envelope Requires Documents, Recipients, Tabs, and a Subject "
        f"Line. {detail}",
    )


def recipient_locked(name: str, status: str) -> ToolError:
    """RECIPIENT_CANNOT_BE_CHANGED: a recipient who finished (or declined) cannot be corrected or removed."""
    return docusign_error(
        Conflict, "RECIPIENT_CANNOT_BE_CHANGED", f"Recipient {name} has status '{status}' and can't be changed."
    )


def tab_not_correctable(name: str) -> ToolError:
    """INVALID_TAB_OPERATION: tabs can't be added for a recipient who finished."""
    return docusign_error(
        Conflict,
        "INVALID_TAB_OPERATION",
        f"The Tab specified is not valid for the requested operation. Recipient {name} is not in a state that "
        "allows correction.",
    )


def out_of_sequence() -> ToolError:
    """RECIPIENT_NOT_IN_SEQUENCE: it is not yet this recipient's turn in the routing order."""
    return docusign_error(
        Conflict,
        "RECIPIENT_NOT_IN_SEQUENCE",
        "The token for an out of sequence recipient can not be generated: earlier routing orders haven't finished.",
    )


def bad_parameter(detail: str) -> ToolError:
    """INVALID_REQUEST_PARAMETER: a value breaks one of the endpoint's rules."""
    return docusign_error(
        InvalidRequest, "INVALID_REQUEST_PARAMETER", f"The request contained an invalid value. {detail}"
    )


def tab_missing_document(document_id: str) -> ToolError:
    """TAB_REFERS_TO_MISSING_DOCUMENT."""
    return docusign_error(
        InvalidRequest,
        "TAB_REFERS_TO_MISSING_DOCUMENT",
        f"The DocumentId {document_id} specified in the tab element does not refer to a document in this envelope.",
    )


def tab_page_missing(page: int, document_id: str) -> ToolError:
    """TAB_PAGENUMBER_IS_NOT_IN_DOCUMENT."""
    return docusign_error(
        InvalidRequest,
        "TAB_PAGENUMBER_IS_NOT_IN_DOCUMENT",
        f"The pagenumber {page} specified in the tab element is not in the document {document_id}.",
    )


def required_tab_incomplete(labels: list[str]) -> ToolError:
    """REQUIRED_TAB_INCOMPLETE: required fields left empty when signing."""
    return docusign_error(
        InvalidRequest, "REQUIRED_TAB_INCOMPLETE", f"Required fields are not filled in: {', '.join(labels)}."
    )


def not_found(message: str) -> ToolError:
    """A NotFound with DocuSign's text."""
    return NotFound(message)
