"""US A2P 10DLC: a Messaging Service sends US long-code traffic only under a VERIFIED campaign, which an APPROVED
brand of the same account registers (use cases by brand type; a vetting fee; one campaign per service)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, InvalidRequest

from .access import active_account, campaign_of, service
from .errors import missing_text, refused
from .rules import CAMPAIGN_VETTING_FEE, SOLE_PROPRIETOR_SENDERS, USECASES_BY_BRAND, new_sid
from .schema import brands, campaigns, phone_numbers
from .usage import charge


def register(db: Database, service_sid: str, brand_sid: str, fields: dict[str, Any]) -> dict[str, Any]:
    """Register a campaign on a service; it starts IN_PROGRESS (being vetted) and its vetting fee is charged."""
    svc = service(db, service_sid)
    active_account(db, svc["account_sid"])
    brand = db.find_one(
        brands, sid=brand_sid, account_sid=svc["account_sid"], not_found=missing_text("BrandRegistration", brand_sid)
    )
    if campaign_of(db, svc["sid"]) is not None:
        raise refused(
            f"Messaging Service {svc['sid']} already has a US A2P campaign; delete it before registering another"
        )
    if brand["status"] != "APPROVED":
        raise refused(
            f"Brand registration {brand_sid} is {brand['status']}; only an APPROVED brand can register campaigns"
        )
    usecase = fields["us_app_to_person_usecase"]
    allowed = USECASES_BY_BRAND[brand["brand_type"]]
    if usecase not in allowed:
        raise InvalidRequest(
            f"Use case {usecase} is not available to a {brand['brand_type']} brand; "
            f"it may use {', '.join(sorted(allowed))}"
        )
    if (
        usecase == "SOLE_PROPRIETOR"
        and len(db.find(phone_numbers, messaging_service_sid=svc["sid"])) > SOLE_PROPRIETOR_SENDERS
    ):
        raise refused("A sole proprietor A2P campaign can send from one phone number only; trim the sender pool first")
    row = db.insert(
        campaigns,
        sid=new_sid(db, campaigns, "QE"),
        messaging_service_sid=svc["sid"],
        brand_registration_sid=brand_sid,
        campaign_status="IN_PROGRESS",
        date_created=db.now_iso(),
        **fields,
    )
    charge(db, svc["account_sid"], "a2p-10dlc-registrationfees", CAMPAIGN_VETTING_FEE)
    return row
