"""QuickBooks Online's business rules: its Fault error shape and codes, SyncToken optimistic concurrency, the
books' close date, unique display names across customers and vendors, and how payments settle invoices."""

from __future__ import annotations

import json
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound
from envfactory_gym.errors import ToolError

from .schema import companies, customers, vendors

INACTIVE = (
    "Object Not Found : Something you're trying to use has been made inactive. Check the fields with accounts, "
    "customers, items, vendors or employees."
)


def fault(
    code: str,
    message: str,
    detail: str,
    kind: type[ToolError] = InvalidRequest,
    element: str = "",
    fault_type: str = "ValidationFault",
) -> ToolError:
    """An error in Intuit's shape: {"Fault": {"Error": [{"Message", "Detail", "code", "element"}], "type"}}."""
    body = {"Fault": {"Error": [{"Message": message, "Detail": detail, "code": code, "element": element}]}}
    body["Fault"]["type"] = fault_type  # type: ignore[index]
    return kind(json.dumps(body))


def business_error(detail: str, kind: type[ToolError] = InvalidRequest) -> ToolError:
    """Error 6000, QuickBooks' catch-all business validation fault."""
    return fault(
        "6000", "A business validation error has occurred while processing your request",
        f"Business Validation Error: {detail}", kind,
    )  # fmt: skip


def not_found(entity: str, entity_id: str) -> ToolError:
    """Error 610 for an id the company does not hold."""
    return fault("610", "Object Not Found", f"Object Not Found : {entity} with Id {entity_id} is not found.", NotFound)


def inactive(element: str) -> ToolError:
    """Error 610 for a reference to an inactive customer, vendor, item or account."""
    return fault("610", "Object Not Found", INACTIVE, InvalidRequest, element)


def check_sync_token(row: dict[str, Any], sync_token: str) -> None:
    """Optimistic concurrency: an update must name the object's current SyncToken (error 5010 otherwise)."""
    if sync_token != str(row["sync_token"]):
        raise fault(
            "5010", "Stale Object Error",
            "Stale Object Error : You and another user were working on this at the same time. The other user "
            f"finished before you did, so your work was not saved. (Current SyncToken: {row['sync_token']})",
            Conflict, "SyncToken",
        )  # fmt: skip


def check_book_close(db: Database, realm_id: str, txn_date: str) -> None:
    """Refuse a transaction dated on or before the company's book close date (error 6210)."""
    closed = db.get(companies, realm_id)["book_close_date"]
    if closed is not None and txn_date <= closed:
        raise fault(
            "6210", "Account Period Closed",
            f"The account period has closed and the books are locked through {closed}. Use a TxnDate after it.",
            Conflict, "TxnDate",
        )  # fmt: skip


def check_unique_name(db: Database, realm_id: str, name: str, keep: str | None = None) -> None:
    """Display names are unique across a company's customers and vendors, active or not (error 6240)."""
    lowered = name.strip().lower()
    for table, what in ((customers, "customer"), (vendors, "vendor")):
        clash = db.select(table, "realm_id = ? AND lower(display_name) = ?", (realm_id, lowered))
        clash = [row for row in clash if row["id"] != keep]
        if clash:
            raise fault(
                "6240", "Duplicate Name Exists Error",
                f"The name supplied already exists. : Another {what} is already using this name. Please use a "
                f"different name. Id={clash[0]['id']}",
                Conflict, "DisplayName",
            )  # fmt: skip


def duplicate_number(number: str, txn_type: str, txn_id: str) -> ToolError:
    """Error 6140 for a document number already used, naming the transaction that holds it."""
    return fault(
        "6140", "Duplicate Document Number Error",
        "Duplicate Document Number Error : You must specify a different number. This number has already been used. "
        f"DocNumber={number} is assigned to TxnType={txn_type} with TxnId={txn_id}",
        Conflict, "DocNumber",
    )  # fmt: skip


def cents(amount: Any) -> int:
    """A decimal amount (12.5) as integer cents."""
    return int(round(amount * 100))
