"""Record plumbing the tools share: new ids in Salesforce's shape, saving a change with its LastModifiedDate,
duplicate rules, the next case number, the rules for deleting a record (and what goes to the Recycle Bin with an
account), and the output of a record with its related lists."""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import Table

from envfactory_gym import Conflict, Database

from .objects import Account, Case, CaseComment, Contact, ContactRole, Lead, Opportunity, Task, UserInfo, record
from .picklists import PICKLIST_VALUES
from .rules import PREFIXES, sf_error
from .schema import case_comments, cases, contact_roles, contacts, opportunities, tasks

MODELS: dict[str, Any] = {"Account": Account, "Contact": Contact, "Opportunity": Opportunity, "Case": Case,
                          "Task": Task, "Lead": Lead, "User": UserInfo}  # fmt: skip


def new_id(db: Database, sobject: str) -> str:
    """A fresh 18-character id with the object's key prefix."""
    prefix, table = PREFIXES[sobject]
    return db.new_id(table, f"{prefix}Hs00000", width=8)


def given(**values: Any) -> dict[str, Any]:
    """The fields a caller set (None means not given)."""
    return {name: value for name, value in values.items() if value is not None}


def save(db: Database, table: Table, row: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """Write changed fields with a new LastModifiedDate."""
    return db.update(table, row["Id"], **changes, LastModifiedDate=db.now_iso())


def check_duplicates(db: Database, table: Table, column: str, value: str | None, allow_save: bool) -> None:
    """The org's duplicate rules: an active record with the same name (accounts) or email (contacts, leads)."""
    if value is None or allow_save:
        return
    matches = db.select(table, f'"IsDeleted" = 0 AND lower("{column}") = ?', (value.strip().lower(),))
    if matches:
        ids = ", ".join(m["Id"] for m in matches)
        raise sf_error(
            "DUPLICATES_DETECTED", f"Use one of these records? Possible duplicates: {ids}", [column], Conflict
        )


def next_case_number(db: Database) -> str:
    """Case numbers run in one sequence of eight digits."""
    rows = db.select(cases, "", (), order_by='"CaseNumber" DESC', limit=1)
    return f"{int(rows[0]['CaseNumber']) + 1:08d}" if rows else "00001001"


def quarter_end(day: date) -> str:
    """The last day of the calendar quarter `day` falls in."""
    month = (day.month - 1) // 3 * 3 + 3
    following = date(day.year + (month == 12), month % 12 + 1, 1)
    return date.fromordinal(following.toordinal() - 1).isoformat()


def delete_blockers(db: Database, sobject: str, row: dict[str, Any]) -> None:
    """Salesforce refuses to delete an account with cases or Closed Won opportunities, and a contact with cases."""
    if sobject == "Account":
        linked = db.find(cases, AccountId=row["Id"], IsDeleted=False)
        won = db.find(opportunities, AccountId=row["Id"], IsWon=True, IsDeleted=False)
        if linked:
            numbers = ", ".join(c["CaseNumber"] for c in linked)
            raise sf_error("DELETE_FAILED", f"Your attempt to delete {row['Name']} could not be completed because "
                           f"it is associated with the following cases.: {numbers}", kind=Conflict)  # fmt: skip
        if won:
            raise sf_error("DELETE_FAILED", f"Your attempt to delete {row['Name']} could not be completed because it "
                           "has Closed Won opportunities.", kind=Conflict)  # fmt: skip
    if sobject == "Contact" and db.find(cases, ContactId=row["Id"], IsDeleted=False):
        raise sf_error("DELETE_FAILED", f"Your attempt to delete {row['Name']} could not be completed because it is "
                       "associated with cases.", kind=Conflict)  # fmt: skip


def recycle(db: Database, sobject: str, row: dict[str, Any]) -> list[str]:
    """Move a record to the Recycle Bin; an account takes its contacts, opportunities and their tasks with it."""
    table = PREFIXES[sobject][1]
    moved = [row["Id"]]
    save(db, table, row, {"IsDeleted": True})
    if sobject == "Account":
        for child_table in (contacts, opportunities):
            for child in db.find(child_table, AccountId=row["Id"], IsDeleted=False):
                save(db, child_table, child, {"IsDeleted": True})
                moved.append(child["Id"])
    for task in db.select(tasks, '"IsDeleted" = 0 AND ("WhatId" IN ({0}) OR "WhoId" IN ({0}))'.format(
            ", ".join("?" for _ in moved)), (*moved, *moved)):  # fmt: skip
        save(db, tasks, task, {"IsDeleted": True})
    return moved


def full_record(db: Database, sobject: str, row: dict[str, Any]) -> dict[str, Any]:
    """A record as the API returns it, with an opportunity's contact roles and a case's comments."""
    out = record(MODELS[sobject], row).model_dump()
    if sobject == "Opportunity":
        out["ContactRoles"] = [
            ContactRole(
                Id=r["Id"],
                ContactId=r["ContactId"],
                ContactName=db.get(contacts, r["ContactId"])["Name"],
                Role=r["Role"],
                IsPrimary=r["IsPrimary"],
            ).model_dump()  # fmt: skip
            for r in db.find(contact_roles, OpportunityId=row["Id"])
        ]
    if sobject == "Case":
        out["CaseComments"] = [
            record(CaseComment, c).model_dump()
            for c in db.find(case_comments, ParentId=row["Id"], order_by=[case_comments.c.CreatedDate])
        ]
    return {"attributes": {"type": sobject, "url": f"/services/data/v60.0/sobjects/{sobject}/{row['Id']}"}} | out


def field_type(sobject: str, column: Any) -> str:
    """A field's type as describe names it: id, reference, picklist, string, double, int, boolean, date, datetime."""
    name = column.name
    if name == "Id":
        return "id"
    if (sobject, name) in PICKLIST_VALUES:
        return "picklist"
    if name.endswith("Id"):
        return "reference"
    if name.endswith("Date") and name not in ("CloseDate", "ActivityDate"):
        return "datetime"
    if name in ("CloseDate", "ActivityDate"):
        return "date"
    return {"BOOLEAN": "boolean", "FLOAT": "double", "INTEGER": "int"}.get(str(column.type), "string")
