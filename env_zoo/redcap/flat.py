"""REDCap's record data machinery: flattening saved instruments into the API's flat rows (one per record and
event, one more per repeating instance) with export rights applied, and Import Records' checks and writes
(events, the instrument-event mapping, repeat instances, instrument rights, data access groups, locks, field
validation, normal versus overwrite), reported as REDCap's "record","field","value","message" lines."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from . import rules
from .access import form_right
from .errors import bad_request, conflict, forbidden
from .schema import form_data, records


def _line(record: str, field: str, value: str, message: str) -> str:
    """One line of an import error report."""
    return f'"{record}","{field}","{value}","{message}"'


SPECIAL = ("redcap_event_name", "redcap_repeat_instrument", "redcap_repeat_instance", "redcap_data_access_group")


def _hidden(field: dict[str, Any], data_export: int) -> bool:
    """Fields an export right removes: identifiers (3), and identifiers, notes and dates (2, de-identified)."""
    if data_export == 3:
        return bool(field["identifier"])
    if data_export == 2:
        return (
            bool(field["identifier"])
            or field["field_type"] == "notes"
            or (field["validation"] or "").startswith("date")
        )
    return False


def _columns(field: dict[str, Any]) -> list[str]:
    if field["field_type"] == "checkbox":
        return [f"{field['field_name']}___{code}" for code in rules.choices(field)]
    if field["field_type"] == "descriptive":
        return []
    return [field["field_name"]]


def export_rows(
    db: Database,
    project: dict[str, Any],
    rights: dict[str, Any],
    wanted: list[dict[str, Any]],
    field_set: set[str] | None,
    form_set: set[str] | None,
    event_set: set[str] | None,
    with_dag: bool,
) -> list[dict[str, str]]:
    """Flat rows for `wanted` records, limited to the fields, forms and events asked for and to the user's rights."""
    pid = project["project_id"]
    known = rules.project_fields(db, pid)
    id_field = rules.record_id_field(db, pid)
    events = rules.project_events(db, project)
    order = list(events)
    forms = rules.form_names(db, pid)
    columns_of: dict[str, list[str]] = {}
    for field in known.values():
        if field["field_name"] == id_field or form_right(rights, field["form_name"]) == 0:
            continue
        if (
            form_set is not None
            and field["form_name"] not in form_set
            and (field_set is None or field["field_name"] not in field_set)
        ):
            continue
        if (
            field_set is not None
            and field["field_name"] not in field_set
            and (form_set is None or field["form_name"] not in form_set)
        ):
            continue
        if _hidden(field, rights["data_export"]):
            continue
        columns_of.setdefault(field["form_name"], []).extend(_columns(field))
    rows: list[dict[str, str]] = []
    for record in wanted:
        saved = sorted(
            rules.saved_forms(db, pid, record["record"]),
            key=lambda r: (
                order.index(r["event"]) if r["event"] in order else 0,
                r["form"] in events.get(r["event"], {}).get("repeating_forms", []),
                forms.index(r["form"]) if r["form"] in forms else 0,
                r["instance"],
            ),
        )
        by_key: dict[tuple[str, str, int], dict[str, str]] = {}
        for item in saved:
            if event_set is not None and item["event"] not in event_set:
                continue
            if item["form"] not in columns_of and not (
                form_set and item["form"] in form_set and form_right(rights, item["form"])
            ):
                continue
            repeating = item["form"] in events.get(item["event"], {}).get("repeating_forms", [])
            key = (item["event"], item["form"] if repeating else "", item["instance"] if repeating else 0)
            row = by_key.get(key)
            if row is None:
                row = {id_field: record["record"]}
                if project["is_longitudinal"]:
                    row["redcap_event_name"] = item["event"]
                if any(events[e]["repeating_forms"] for e in events):
                    row["redcap_repeat_instrument"] = key[1]
                    row["redcap_repeat_instance"] = str(key[2]) if key[2] else ""
                if with_dag:
                    row["redcap_data_access_group"] = record["dag"] or ""
                by_key[key] = row
                rows.append(row)
            values = item["values"]
            for column in columns_of.get(item["form"], []):
                row[column] = values.get(column, "0" if "___" in column else "")
            if form_set is None or item["form"] in form_set:
                row[f"{item['form']}_complete"] = str(item["complete"])
    return rows


def _field_of(column: str, known: dict[str, dict[str, Any]], forms: list[str]) -> tuple[str | None, str | None]:
    """(form, field name) a column belongs to; (form, None) for "<form>_complete"; (None, None) when unknown."""
    if column in known and known[column]["field_type"] not in ("checkbox", "descriptive"):
        return known[column]["form_name"], column
    name, _, code = column.partition("___")
    if code and name in known and known[name]["field_type"] == "checkbox" and code in rules.choices(known[name]):
        return known[name]["form_name"], name
    if column.endswith("_complete") and column[: -len("_complete")] in forms:
        return column[: -len("_complete")], None
    return None, None


def import_rows(
    db: Database,
    project: dict[str, Any],
    rights: dict[str, Any],
    username: str,
    data: list[dict[str, str]],
    overwrite: bool,
) -> list[str]:
    """Check every row, then save them all (or nothing); returns the record names touched, in order."""
    pid = project["project_id"]
    rules.writable(project)
    known = rules.project_fields(db, pid)
    forms = rules.form_names(db, pid)
    id_field = rules.record_id_field(db, pid)
    events = rules.project_events(db, project)
    errors: list[str] = []
    unknown = sorted(
        {c for row in data for c in row if c != id_field and c not in SPECIAL and _field_of(c, known, forms)[0] is None}
    )
    if unknown:
        raise bad_request(
            f"The following fields were not found in the project as real data fields: {', '.join(unknown)}"
        )
    plan: list[tuple[str, str, str, int, dict[str, str], str | None, int | None]] = []
    new_records: dict[str, tuple[int, str | None]] = {}
    for row in data:
        record = (row.get(id_field) or "").strip()
        if not record:
            errors.append(f'"","{id_field}","","The record ID field is missing or blank."')
            continue
        event = row.get("redcap_event_name", "")
        if project["is_longitudinal"]:
            if event not in events:
                errors.append(_line(record, "redcap_event_name", event, "The value is not a valid unique event name."))
                continue
        elif event:
            errors.append(
                _line(
                    record, "redcap_event_name", event, "The project is not longitudinal; leave redcap_event_name out."
                )
            )
            continue
        else:
            event = rules.CLASSIC_EVENT
        arm = events[event]["arm_num"]
        existing = db.find(records, project_id=pid, record=record)
        dag_given = row.get("redcap_data_access_group")
        if existing:
            if rights["data_access_group"] and existing[0]["dag"] != rights["data_access_group"]:
                errors.append(
                    _line(
                        record,
                        id_field,
                        record,
                        "The record belongs to another Data Access Group; you cannot modify it.",
                    )
                )
                continue
            if existing[0]["arm_num"] != arm:
                errors.append(
                    _line(
                        record,
                        "redcap_event_name",
                        event,
                        f"The record is in Arm {existing[0]['arm_num']}; this event is in Arm {arm}.",
                    )
                )
                continue
        elif record not in new_records:
            if not rights["record_create"]:
                raise forbidden("You do not have Create Records privileges in this project.")
            new_records[record] = (arm, rights["data_access_group"])
        dag_set: str | None = None
        if dag_given is not None:
            if rights["data_access_group"]:
                errors.append(
                    _line(
                        record,
                        "redcap_data_access_group",
                        dag_given,
                        "Users in a Data Access Group cannot assign records to groups.",
                    )
                )
                continue
            if dag_given:
                rules.dag_by_name(db, pid, dag_given)
            dag_set = dag_given or ""
        repeat_form = row.get("redcap_repeat_instrument", "")
        instance_text = row.get("redcap_repeat_instance", "")
        by_form: dict[str, dict[str, str]] = {}
        for column, value in row.items():
            if column == id_field or column in SPECIAL:
                continue
            form, name = _field_of(column, known, forms)
            assert form is not None
            target = by_form.setdefault(form, {})
            if name is None:
                if value not in ("0", "1", "2"):
                    errors.append(_line(record, column, value, f"The value is not a valid category for {column}"))
                target["__complete__"] = value
                continue
            if value == "":
                target[column] = value
                continue
            field = known[name]
            problem = (
                (None if value in ("0", "1") else f"The value is not a valid category for {column}")
                if "___" in column
                else rules.check_value(field, value)
            )
            if problem:
                errors.append(_line(record, column, value, problem))
            target[column] = value
        for form, values in by_form.items():
            if form not in events[event]["forms"]:
                errors.append(
                    _line(
                        record,
                        f"{form}_complete",
                        "",
                        f"The instrument '{form}' is not designated for the event '{event}'.",
                    )
                )
                continue
            repeating = form in events[event]["repeating_forms"]
            if repeating:
                if repeat_form != form or not instance_text.isdigit() or int(instance_text) < 1:
                    errors.append(
                        _line(
                            record,
                            "redcap_repeat_instance",
                            instance_text,
                            f"The instrument '{form}' repeats: give redcap_repeat_instrument '{form}' "
                            "and a redcap_repeat_instance of 1 or more.",
                        )
                    )
                    continue
                instance = int(instance_text)
            else:
                if repeat_form or instance_text:
                    errors.append(
                        _line(
                            record,
                            "redcap_repeat_instrument",
                            repeat_form,
                            f"The instrument '{form}' does not repeat in this event; "
                            "leave redcap_repeat_instrument and redcap_repeat_instance blank.",
                        )
                    )
                    continue
                instance = 1
            if form_right(rights, form) != 1:
                errors.append(
                    _line(record, f"{form}_complete", "", f"You do not have edit rights to the instrument '{form}'.")
                )
                continue
            saved = db.find(form_data, project_id=pid, record=record, event=event, form=form, instance=instance)
            if saved and saved[0]["locked_by"]:
                errors.append(
                    _line(
                        record,
                        f"{form}_complete",
                        "",
                        f"The instrument '{form}' is locked for this record and event; "
                        "it must be unlocked before its data can change.",
                    )
                )
                continue
            plan.append((record, event, form, instance, values, dag_set, saved[0]["id"] if saved else None))
        if not by_form and dag_set is not None:
            plan.append((record, event, "", 0, {}, dag_set, None))
    if errors:
        raise bad_request("\n".join(errors))
    for record, (arm, dag) in new_records.items():
        db.insert(records, project_id=pid, record=record, arm_num=arm, dag=dag)
    touched: list[str] = []
    changes: dict[str, list[str]] = {}
    for record, event, form, instance, values, dag_set, saved_id in plan:
        if dag_set is not None:
            row = db.find(records, project_id=pid, record=record)[0]
            db.update(records, row["id"], dag=dag_set or None)
            changes.setdefault(record, []).append(f"redcap_data_access_group = '{dag_set}'")
        if record not in touched:
            touched.append(record)
        if not form:
            continue
        complete = values.pop("__complete__", None)
        current = dict(db.get(form_data, saved_id)["values"]) if saved_id else {}
        for column, value in values.items():
            if value == "" and not overwrite:
                continue
            if value == "":
                current.pop(column, None)
            else:
                current[column] = value
            changes.setdefault(record, []).append(f"{column} = '{value}'")
        if complete is not None:
            changes.setdefault(record, []).append(f"{form}_complete = '{complete}'")
        if saved_id:
            db.update(
                form_data, saved_id, values=current, **({"complete": int(complete)} if complete is not None else {})
            )
        else:
            db.insert(
                form_data,
                project_id=pid,
                record=record,
                event=event,
                form=form,
                instance=instance,
                values=current,
                complete=int(complete or 0),
            )
    for record in touched:
        verb = "Create" if record in new_records else "Update"
        dag = db.find(records, project_id=pid, record=record)[0]["dag"]
        rules.log(
            db,
            pid,
            username,
            f"{verb} record {record} (API)",
            "record_add" if verb == "Create" else "record_edit",
            ", ".join(changes.get(record, [])),
            record,
            dag,
        )
    return touched


def saved_instrument(
    db: Database,
    project: dict[str, Any],
    rights: dict[str, Any],
    record: str,
    instrument: str,
    event: str | None,
    instance: int,
) -> dict[str, Any]:
    """A record's saved instrument (for locking and e-signing); a form with no data entered cannot be locked."""
    pid = project["project_id"]
    rules.record_or_404(db, rights, pid, record)
    if instrument not in rules.form_names(db, pid):
        raise bad_request(f"The instrument '{instrument}' does not exist in this project.")
    if project["is_longitudinal"]:
        events = rules.project_events(db, project)
        if event is None or event not in events:
            raise bad_request(f"Give a valid unique event name for this longitudinal project (got '{event or ''}').")
    elif event not in (None, rules.CLASSIC_EVENT):
        raise bad_request("This project is not longitudinal; leave event out.")
    found = db.find(
        form_data, project_id=pid, record=record, event=event or rules.CLASSIC_EVENT, form=instrument, instance=instance
    )
    if not found:
        raise conflict(
            f"The instrument '{instrument}' has no data for record {record} in that event/instance; "
            "a form with no data cannot be locked or signed."
        )
    return found[0]
