"""PayPal REST API tools for a merchant: Orders v2, Payments v2 (authorizations, captures, refunds), transaction
search, Disputes, Payouts and Invoicing v2."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Database, Unordered, tool
from envfactory_gym.fields import IsoDate, IsoTimestamp

from . import checkout, invoicing, payouts
from . import disputes as disputing
from .inputs import (
    DisputeStatus,
    Email,
    EvidenceInput,
    InvoiceItemInput,
    InvoiceStatus,
    MoneyInput,
    Name,
    Note,
    PageNumber,
    PageSize,
    PayoutItemInput,
    PurchaseUnitInput,
    TransactionStatus,
)
from .objects import (
    AuthorizationObject,
    CaptureObject,
    DisputeObject,
    DisputeSummary,
    InvoiceObject,
    OrderObject,
    Page,
    PayoutBatchObject,
    PayoutItemObject,
    RefundObject,
    TransactionObject,
    authorization_object,
    capture_object,
    counted_page,
    dispute_object,
    dispute_summary,
    invoice_object,
    order_object,
    page_of,
    payout_batch_object,
    payout_item_object,
    refund_object,
    transaction_object,
)
from .rules import cents, fetch, normalized
from .schema import disputes, orders, payout_batches

# ---------------------------------------------------------------- orders


@tool()
def create_order(
    db: Database, intent: Literal["CAPTURE", "AUTHORIZE"], purchase_unit: PurchaseUnitInput
) -> OrderObject:
    """Create a checkout order (CREATED) for the payer to approve at PayPal. The amount must equal its breakdown
    (item_total + shipping + tax_total - discount) and item_total the sum of the items. CAPTURE takes the money when
    captured; AUTHORIZE only holds it until you capture the authorization.

    Args:
        intent: CAPTURE (take payment immediately after approval) or AUTHORIZE (hold it first).
        purchase_unit: What is bought: amount with breakdown, items, description, invoice_id.
    """
    return order_object(db, checkout.create_order(db, intent, purchase_unit))


@tool(read_only=True)
def show_order_details(db: Database, order_id: str) -> OrderObject:
    """Show an order: status, payer, amount and breakdown, items, and its authorizations, captures and refunds.

    Args:
        order_id: The order's id.
    """
    return order_object(db, fetch(db, orders, order_id, "order", "order_id"))


@tool(user_only=True)
def approve_order(db: Database, order_id: str, payer_email: Email) -> OrderObject:
    """The payer logs in to PayPal and approves the order (only the payer can do this): CREATED -> APPROVED.

    Args:
        order_id: The order to approve.
        payer_email: The payer's PayPal login.
    """
    return order_object(db, checkout.approve_order(db, order_id, payer_email))


@tool()
def capture_order(db: Database, order_id: str) -> OrderObject:
    """Capture payment for an APPROVED order created with intent CAPTURE: the order is COMPLETED.

    Args:
        order_id: The order to capture.
    """
    return order_object(db, checkout.capture_order(db, order_id))


@tool()
def authorize_order(db: Database, order_id: str) -> OrderObject:
    """Authorize payment for an APPROVED order created with intent AUTHORIZE: the funds are held (3-day honor period,
    valid 29 days) and the order is COMPLETED.

    Args:
        order_id: The order to authorize.
    """
    return order_object(db, checkout.authorize_order(db, order_id))


# ---------------------------------------------------------------- payments


@tool()
def capture_authorization(
    db: Database,
    authorization_id: str,
    amount: MoneyInput | None = None,
    final_capture: bool = False,
    invoice_id: Annotated[str, Field(max_length=127)] | None = None,
) -> CaptureObject:
    """Capture an authorization in full (no amount) or in part. A partial capture leaves it PARTIALLY_CAPTURED for
    later captures unless final_capture is true, which releases the rest.

    Args:
        authorization_id: The authorization to capture.
        amount: How much to capture; at most what is left on the authorization.
        final_capture: This is the last capture: release what remains.
        invoice_id: The merchant's invoice number for the capture.
    """
    value = amount.value if amount is not None else None
    return capture_object(db, checkout.capture_authorization(db, authorization_id, value, final_capture, invoice_id))


@tool()
def void_authorization(db: Database, authorization_id: str) -> AuthorizationObject:
    """Void an authorization (CREATED or PARTIALLY_CAPTURED): the held funds are released; captures already made
    stand.

    Args:
        authorization_id: The authorization to void.
    """
    return authorization_object(db, checkout.void_authorization(db, authorization_id))


@tool()
def reauthorize_authorization(
    db: Database, authorization_id: str, amount: MoneyInput | None = None
) -> AuthorizationObject:
    """Reauthorize a CREATED authorization after its 3-day honor period (once, within its 29-day validity, up to
    115% of the original amount): a new authorization replaces it and the old one is VOIDED.

    Args:
        authorization_id: The authorization to reauthorize.
        amount: The new amount; the original amount when omitted.
    """
    value = amount.value if amount is not None else None
    return authorization_object(db, checkout.reauthorize(db, authorization_id, value))


@tool()
def refund_capture(
    db: Database,
    capture_id: str,
    amount: MoneyInput | None = None,
    note_to_payer: Note | None = None,
) -> RefundObject:
    """Refund a capture in full (no amount: what has not been refunded yet) or in part, within 180 days. Refunds
    never exceed the captured amount less earlier refunds; a capture under an open dispute is settled through the
    dispute instead.

    Args:
        capture_id: The capture to refund.
        amount: How much to refund.
        note_to_payer: Why, shown to the payer.
    """
    wanted = cents(amount.value, "amount.value") if amount is not None else None
    return refund_object(checkout.refund(db, capture_id, wanted, note_to_payer))


@tool(read_only=True)
def list_transactions(
    db: Database,
    payer_email: Email | None = None,
    payer_name: Annotated[str, Field(min_length=1, max_length=100)] | None = None,
    start_date: IsoTimestamp | None = None,
    end_date: IsoTimestamp | None = None,
    transaction_status: TransactionStatus | None = None,
    page: PageNumber = 1,
    page_size: PageSize = 20,
) -> Page[TransactionObject]:
    """Search the merchant's transactions, newest first: payments received (CAPTURE, with PayPal's fee) and funds
    held (AUTHORIZATION), each with its order, invoice id and payer. Open the order for items and refunds.

    Args:
        payer_email: Only transactions of this payer.
        payer_name: Only payers whose name contains these words (case-insensitive).
        start_date: Only transactions at or after this time (RFC 3339).
        end_date: Only transactions before this time (RFC 3339).
        transaction_status: Only transactions in this status (a capture's or an authorization's).
        page: Page number, from 1.
        page_size: Transactions per page, 1 to 100.
    """
    start, end = normalized(start_date, "start_date"), normalized(end_date, "end_date")
    checkout.check_no_invalid_range(start, end)
    total, rows = checkout.find_transactions(
        db, payer_email, payer_name, start, end, transaction_status, page, page_size
    )
    return counted_page(total, rows, page, page_size, lambda row: transaction_object(db, row))


# ---------------------------------------------------------------- disputes


@tool(read_only=True)
def list_disputes(
    db: Database,
    dispute_state: DisputeStatus | None = None,
    disputed_transaction_id: str | None = None,
    start_time: IsoTimestamp | None = None,
    page: PageNumber = 1,
    page_size: PageSize = 10,
) -> Page[DisputeSummary]:
    """List disputes against the merchant, newest first.

    Args:
        dispute_state: Only disputes in this status.
        disputed_transaction_id: Only disputes of this capture.
        start_time: Only disputes opened at or after this time (RFC 3339).
        page: Page number, from 1.
        page_size: Disputes per page, 1 to 100.
    """
    rows = disputing.find_disputes(db, dispute_state, disputed_transaction_id, normalized(start_time, "start_time"))
    return page_of(rows, page, page_size, dispute_summary)


@tool(read_only=True)
def show_dispute_details(db: Database, dispute_id: str) -> DisputeObject:
    """Show a dispute: reason, status, stage, amount, the buyer's message, evidence given and the outcome.

    Args:
        dispute_id: The dispute's id (PP-D-...).
    """
    return dispute_object(db, fetch(db, disputes, dispute_id, "dispute", "dispute_id"))


@tool()
def provide_dispute_evidence(db: Database, dispute_id: str, evidence: EvidenceInput) -> DisputeObject:
    """Give evidence on a dispute that is OPEN or WAITING_FOR_SELLER_RESPONSE (shipping tracking, a refund already
    made, or other): it goes UNDER_REVIEW.

    Args:
        dispute_id: The dispute.
        evidence: The evidence.
    """
    return dispute_object(db, disputing.provide_evidence(db, dispute_id, evidence))


@tool()
def accept_dispute_claim(db: Database, dispute_id: str, note: Note | None = None) -> DisputeObject:
    """Accept liability for a dispute that is OPEN or WAITING_FOR_SELLER_RESPONSE: the buyer is refunded the dispute
    amount from the disputed capture and the dispute is RESOLVED in their favour. Cannot be undone.

    Args:
        dispute_id: The dispute.
        note: A note to the buyer.
    """
    return dispute_object(db, disputing.accept_claim(db, dispute_id, note))


@tool()
def escalate_dispute_to_claim(db: Database, dispute_id: str) -> DisputeObject:
    """Escalate an inquiry (stage INQUIRY, OPEN or WAITING_FOR_SELLER_RESPONSE) to a claim PayPal decides: stage
    CHARGEBACK, UNDER_REVIEW.

    Args:
        dispute_id: The dispute.
    """
    return dispute_object(db, disputing.escalate(db, dispute_id))


# ---------------------------------------------------------------- payouts


@tool()
def create_batch_payout(
    db: Database,
    sender_batch_id: Annotated[str, Field(min_length=1, max_length=127)],
    items: Annotated[list[PayoutItemInput], Field(min_length=1, max_length=500)],
    email_subject: Annotated[str, Field(max_length=255)] | None = None,
) -> PayoutBatchObject:
    """Send money to up to 500 email addresses from the merchant's PayPal balance. Receivers without a PayPal
    account get an UNCLAIMED item (the money waits 30 days, and can be cancelled back).

    Args:
        sender_batch_id: Your own id for the batch; never reused.
        items: The payments.
        email_subject: Subject of the email receivers get.
    """
    return payout_batch_object(db, payouts.create_batch(db, sender_batch_id, email_subject, items))


@tool(read_only=True)
def show_payout_batch(db: Database, payout_batch_id: str) -> PayoutBatchObject:
    """Show a payout batch with its total and each item's status.

    Args:
        payout_batch_id: The batch's id.
    """
    return payout_batch_object(db, fetch(db, payout_batches, payout_batch_id, "payout batch", "payout_batch_id"))


@tool()
def cancel_unclaimed_payout_item(db: Database, payout_item_id: str) -> PayoutItemObject:
    """Cancel an UNCLAIMED payout item: it is RETURNED and the money goes back to the balance.

    Args:
        payout_item_id: The item to cancel.
    """
    return payout_item_object(payouts.cancel_item(db, payout_item_id))


# ---------------------------------------------------------------- invoicing


@tool(read_only=True)
def search_invoices(
    db: Database,
    recipient_email: Email | None = None,
    recipient_name: Annotated[str, Field(min_length=1, max_length=100)] | None = None,
    status: Annotated[list[InvoiceStatus], Unordered] | None = None,
    invoice_number: str | None = None,
    page: PageNumber = 1,
    page_size: PageSize = 20,
) -> Page[InvoiceObject]:
    """Search invoices, newest first, by recipient, status or number.

    Args:
        recipient_email: Only invoices billed to this email address.
        recipient_name: Only recipients whose name contains these words (case-insensitive).
        status: Only invoices in these statuses.
        invoice_number: The invoice number.
        page: Page number, from 1.
        page_size: Invoices per page, 1 to 100.
    """
    rows = invoicing.find_invoices(db, recipient_email, recipient_name, status, invoice_number)
    return page_of(rows, page, page_size, invoice_object)


@tool()
def create_draft_invoice(
    db: Database,
    recipient_email: Email,
    recipient_name: Name,
    items: Annotated[list[InvoiceItemInput], Field(min_length=1, max_length=100)],
    due_date: IsoDate,
    invoice_number: Annotated[str, Field(min_length=1, max_length=25)] | None = None,
    note: Annotated[str, Field(max_length=4000)] | None = None,
) -> InvoiceObject:
    """Create a DRAFT invoice (nothing is sent yet). The invoice number must be unique; the next free number is used
    when none is given.

    Args:
        recipient_email: Who is billed.
        recipient_name: The recipient's name.
        items: What is billed.
        due_date: When payment is due (YYYY-MM-DD), not before today.
        invoice_number: The invoice number.
        note: A note to the recipient.
    """
    row = invoicing.create_draft(db, invoice_number, recipient_email, recipient_name, items, due_date, note)
    return invoice_object(row)


@tool()
def send_invoice(db: Database, invoice_id: str) -> InvoiceObject:
    """Send a DRAFT invoice to its recipient: SENT.

    Args:
        invoice_id: The invoice (INV2-...).
    """
    return invoice_object(invoicing.send(db, invoice_id))


@tool()
def record_invoice_payment(
    db: Database,
    invoice_id: str,
    method: Literal["BANK_TRANSFER", "CASH", "CHECK", "CREDIT_CARD", "DEBIT_CARD", "WIRE_TRANSFER", "OTHER"],
    payment_date: IsoDate,
    amount: MoneyInput | None = None,
    note: Note | None = None,
) -> InvoiceObject:
    """Record a payment received outside PayPal on a SENT or PARTIALLY_PAID invoice (at most the amount due; all of
    it when no amount): PARTIALLY_PAID, or MARKED_AS_PAID when nothing is left due.

    Args:
        invoice_id: The invoice.
        method: How the money came.
        payment_date: When it was received (YYYY-MM-DD).
        amount: How much; the amount due when omitted.
        note: A note about the payment.
    """
    value = amount.value if amount is not None else None
    return invoice_object(invoicing.record_payment(db, invoice_id, method, value, payment_date, note))


@tool()
def send_invoice_reminder(db: Database, invoice_id: str) -> InvoiceObject:
    """Remind the recipient of an invoice that is SENT or PARTIALLY_PAID.

    Args:
        invoice_id: The invoice.
    """
    return invoice_object(invoicing.remind(db, invoice_id))


@tool()
def cancel_invoice(db: Database, invoice_id: str) -> InvoiceObject:
    """Cancel a SENT invoice nothing has been paid on: CANCELLED (the recipient is told).

    Args:
        invoice_id: The invoice.
    """
    return invoice_object(invoicing.cancel(db, invoice_id))
