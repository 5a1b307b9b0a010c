"""REDCap's rules the tools share: how a value is checked against its field's type, validation and range, choice
codes, unique data access group names, the next record name (with the DAG prefix under auto-numbering), the
project log, a small filter-logic evaluator, and which records a user's data access group lets them see."""

from __future__ import annotations

import re
from typing import Any

from envfactory_gym import Database, InvalidRequest
from envfactory_gym.values import parse_date

from .errors import bad_request, conflict, not_found
from .schema import dags, events, fields, form_data, instruments, logs, records

CLASSIC_EVENT = "event_1_arm_1"
DAG_VARIABLE = "record-dag-name"  # the smart variable for a record's data access group in filter logic
FORMAT = (
    "The value you provided could not be validated because it does not follow the expected format. Please try again."
)
PATTERNS = {
    "integer": r"-?\d+",
    "number": r"-?\d+(\.\d+)?",
    "email": r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}",
    "phone": r"\(?\d{3}\)?[ .-]?\d{3}[ .-]?\d{4}",
    "time": r"([01]\d|2[0-3]):[0-5]\d",
    "datetime_ymd": r"\d{4}-\d{2}-\d{2} ([01]\d|2[0-3]):[0-5]\d",
    "date_ymd": r"\d{4}-\d{2}-\d{2}",
}
FIELD_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def stamp(db: Database) -> str:
    """The simulated time as REDCap shows it."""
    return db.now().strftime("%Y-%m-%d %H:%M")


def choices(field: dict[str, Any]) -> dict[str, str]:
    """A field's choice codes and labels ("1, Mild | 2, Moderate")."""
    if field["field_type"] == "yesno":
        return {"1": "Yes", "0": "No"}
    out: dict[str, str] = {}
    for part in (field["select_choices"] or "").split("|"):
        code, _, label = part.partition(",")
        if code.strip():
            out[code.strip()] = label.strip()
    return out


def _is_date(value: str) -> bool:
    try:
        parse_date(value, "value")
    except InvalidRequest:
        return False
    return True


def check_value(field: dict[str, Any], value: str) -> str | None:
    """Why `value` cannot be saved in `field`, or None when it can."""
    if field["field_type"] in ("radio", "dropdown", "yesno"):
        return None if value in choices(field) else f"The value is not a valid category for {field['field_name']}"
    kind = field["validation"]
    if field["field_type"] != "text" or not kind:
        return None
    if not re.fullmatch(PATTERNS[kind], value) or (kind.startswith("date") and not _is_date(value[:10])):
        return FORMAT
    low, high = field["validation_min"], field["validation_max"]
    if kind in ("integer", "number"):
        number = float(value)
        if (low is not None and number < float(low)) or (high is not None and number > float(high)):
            return f"The value is outside the acceptable range ({low or ''} - {high or ''})."
    elif kind.startswith("date") and ((low and value[:10] < low) or (high and value[:10] > high)):
        return f"The value is outside the acceptable range ({low or ''} - {high or ''})."
    return None


def project_fields(db: Database, project_id: int) -> dict[str, dict[str, Any]]:
    """The data dictionary, field name -> field, in order."""
    return {f["field_name"]: f for f in db.find(fields, project_id=project_id, order_by=[fields.c.position])}


def record_id_field(db: Database, project_id: int) -> str:
    """The project's first field, which names records."""
    return db.find(fields, project_id=project_id, order_by=[fields.c.position])[0]["field_name"]


def form_names(db: Database, project_id: int) -> list[str]:
    """The project's instruments in order."""
    return [
        i["instrument_name"] for i in db.find(instruments, project_id=project_id, order_by=[instruments.c.position])
    ]


def project_events(db: Database, project: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """unique_event_name -> event (a classic project has its one hidden event)."""
    found = db.find(events, project_id=project["project_id"], order_by=[events.c.arm_num, events.c.day_offset])
    return {e["unique_event_name"]: e for e in found}


def writable(project: dict[str, Any]) -> None:
    """Refuse data changes in a project whose data are locked for analysis."""
    if project["status"] == "analysis" and project["data_locked"]:
        raise conflict(
            "The project is in Analysis/Cleanup status with its data locked (read-only); data cannot be modified."
        )


def in_development(project: dict[str, Any], what: str) -> None:
    """Refuse design changes outside development status."""
    if project["status"] != "development":
        status = project["status"].capitalize()
        raise conflict(f"{what} can only be done in Development status (this project is in {status}).")


def find_record(db: Database, rights: dict[str, Any], project_id: int, record: str) -> dict[str, Any] | None:
    """The record, when it exists and the user's data access group (if any) holds it."""
    found = db.find(records, project_id=project_id, record=record)
    if not found or (rights["data_access_group"] and found[0]["dag"] != rights["data_access_group"]):
        return None
    return found[0]


def record_or_404(db: Database, rights: dict[str, Any], project_id: int, record: str) -> dict[str, Any]:
    """The record the user may see, or 404."""
    row = find_record(db, rights, project_id, record)
    if row is None:
        raise not_found(f"The record '{record}' does not exist in project {project_id}.")
    return row


def visible_records(db: Database, rights: dict[str, Any], project_id: int) -> list[dict[str, Any]]:
    """The records the user's data access group (or, outside any group, the whole project) holds."""
    if rights["data_access_group"]:
        return db.find(records, project_id=project_id, dag=rights["data_access_group"])
    return db.find(records, project_id=project_id)


def dag_by_name(db: Database, project_id: int, unique_group_name: str) -> dict[str, Any]:
    """A data access group by its unique name."""
    found = db.find(dags, project_id=project_id, unique_group_name=unique_group_name)
    if not found:
        raise bad_request(f"The data access group '{unique_group_name}' does not exist in this project.")
    return found[0]


def unique_group_name(name: str, taken: set[str]) -> str:
    """REDCap's unique group name: the label in lower case, non-alphanumerics as underscores, 18 characters at
    most, a number appended when taken."""
    base = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")[:18].strip("_") or "dag"
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base[:15]}_{n}", n + 1
    return candidate


def next_record_name(db: Database, project: dict[str, Any], rights: dict[str, Any]) -> str:
    """The name the next new record gets: under auto-numbering a user in a data access group gets
    "<group id>-<n>", everyone else the highest whole-number record plus one."""
    names = [r["record"] for r in db.find(records, project_id=project["project_id"])]
    if project["record_autonumbering_enabled"] and rights["data_access_group"]:
        group = dag_by_name(db, project["project_id"], rights["data_access_group"])
        prefix = f"{group['group_id']}-"
        numbers = [int(n[len(prefix) :]) for n in names if n.startswith(prefix) and n[len(prefix) :].isdigit()]
        return f"{prefix}{max(numbers, default=0) + 1}"
    numbers = [int(n) for n in names if n.isdigit()]
    return str(max(numbers, default=0) + 1)


def log(
    db: Database,
    project_id: int,
    username: str,
    action: str,
    log_type: str,
    details: str,
    record: str | None = None,
    dag: str | None = None,
) -> None:
    """Write one entry of the project log (tagged with the record's data access group)."""
    if record is not None and dag is None:
        found = db.find(records, project_id=project_id, record=record)
        dag = found[0]["dag"] if found else None
    db.insert(
        logs,
        project_id=project_id,
        timestamp=stamp(db),
        username=username,
        action=action,
        record=record,
        log_type=log_type,
        dag=dag,
        details=details,
    )


def saved_forms(db: Database, project_id: int, record: str) -> list[dict[str, Any]]:
    """A record's saved form data, in order of entry."""
    return db.find(form_data, project_id=project_id, record=record)


CONDITION = re.compile(
    r"^\s*\[([a-z][a-z0-9_]*|record-dag-name)\]\s*(=|<>|!=|<=|>=|<|>)\s*(?:'([^']*)'|\"([^\"]*)\"|(-?\d+(?:\.\d+)?))\s*$"
)


def parse_filter(logic: str, known: dict[str, dict[str, Any]]) -> list[list[tuple[str, str, str]]]:
    """filterLogic as OR-groups of AND-ed comparisons: [field] op value, joined by "and" / "or"."""
    groups: list[list[tuple[str, str, str]]] = []
    for part in re.split(r"\s+or\s+", logic.strip(), flags=re.IGNORECASE):
        group = []
        for piece in re.split(r"\s+and\s+", part, flags=re.IGNORECASE):
            match = CONDITION.match(piece)
            if not match:
                raise bad_request(f"The filterLogic you provided is not valid: {piece.strip()}")
            name, op = match.group(1), match.group(2)
            if name not in known and name != DAG_VARIABLE:
                raise bad_request(f"The filterLogic refers to a field that does not exist: [{name}]")
            value = next(v for v in match.groups()[2:] if v is not None)
            group.append((name, "<>" if op == "!=" else op, value))
        groups.append(group)
    return groups


def _compare(left: str, op: str, right: str) -> bool:
    try:
        a: Any = float(left)
        b: Any = float(right)
    except ValueError:
        a, b = left, right
    if left == "" and op not in ("=", "<>"):
        return False
    return {"=": a == b, "<>": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]


def matches(groups: list[list[tuple[str, str, str]]], values: dict[str, str]) -> bool:
    """Whether a record's values satisfy the filter."""
    return any(all(_compare(values.get(name, ""), op, value) for name, op, value in group) for group in groups)


def check_design(
    field_type: str, select_choices: str | None, validation: str | None, low: str | None, high: str | None
) -> None:
    """A new field's choices and validation must fit its type."""
    if field_type in ("radio", "dropdown", "checkbox"):
        if not select_choices or not choices({"field_type": field_type, "select_choices": select_choices}):
            raise bad_request(f'A {field_type} field needs choices written as "1, Label | 2, Label".')
    elif select_choices:
        raise bad_request(f"A {field_type} field takes no choices.")
    if validation and field_type != "text":
        raise bad_request("Only text fields take a validation.")
    for bound in (low, high):
        if bound is not None and (
            not validation
            or check_value(
                {
                    "field_type": "text",
                    "field_name": "bound",
                    "validation": validation,
                    "validation_min": None,
                    "validation_max": None,
                },
                bound,
            )
        ):
            raise bad_request(f"The range bound '{bound}' does not fit the validation '{validation or ''}'.")
