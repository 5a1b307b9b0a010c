"""GitHub Actions rules: opening a pull request queues the workflows that run on `pull_request`; a completed run
less than a month old can be re-run (all its jobs, or only the failed ones) as a new attempt; a run still going
can't be."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from envfactory_gym import Conflict, Database, PermissionDenied
from envfactory_gym.values import parse_timestamp

from .access import Viewer
from .schema import jobs, workflow_runs, workflows

FAILED = {"failure", "cancelled", "timed_out", "startup_failure", "action_required"}
RERUN_WINDOW = timedelta(days=30)


def run(db: Database, repo: dict[str, Any], run_id: int) -> dict[str, Any]:
    """A workflow run of the repository."""
    return db.find_one(workflow_runs, id=run_id, repo_id=repo["id"], not_found="Not Found")


def trigger_pull_request(
    db: Database, viewer: Viewer, repo: dict[str, Any], number: int, title: str, branch: str, head: str
) -> list[int]:
    """Queue a run of every active workflow that runs on pull_request, for a new pull request; returns their ids."""
    queued: list[int] = []
    for flow in db.find(workflows, repo_id=repo["id"], state="active", order_by=[workflows.c.id]):
        if "pull_request" not in flow["events"]:
            continue
        last = max((r["run_number"] for r in db.find(workflow_runs, workflow_id=flow["id"])), default=0)
        now, me = db.now_iso(), viewer.user_id
        row = db.insert(
            workflow_runs,
            id=int(db.new_id(workflow_runs, "158", width=8)),
            repo_id=repo["id"],
            workflow_id=flow["id"],
            run_number=last + 1,
            run_attempt=1,
            display_title=title,
            event="pull_request",
            status="queued",
            conclusion=None,
            head_branch=branch,
            head_sha=head,
            actor_id=me,
            triggering_actor_id=me,
            pull_request_numbers=[number],
            created_at=now,
            updated_at=now,
        )
        for name in flow["jobs"]:
            db.insert(
                jobs,
                id=int(db.new_id(jobs, "430", width=8)),
                run_id=row["id"],
                name=name,
                run_attempt=1,
                status="queued",
                conclusion=None,
                failed_step=None,
                started_at=None,
                completed_at=None,
            )
        queued.append(row["id"])
    return queued


def rerun(db: Database, viewer: Viewer, repo: dict[str, Any], row: dict[str, Any], failed_only: bool) -> dict[str, Any]:
    """Start a new attempt of a completed run: its failed jobs (or all of them) are queued again."""
    viewer.require(db, repo, "write", f"Must have write access to re-run workflows in {repo['full_name']}.")
    if row["status"] != "completed":
        raise PermissionDenied("This workflow is already running")
    created = parse_timestamp(row["created_at"], "created_at")
    if db.now() - created > RERUN_WINDOW:
        raise PermissionDenied("Unable to retry this workflow run because it was created over a month ago")
    current_jobs = db.find(jobs, run_id=row["id"], order_by=[jobs.c.id])
    again = [j for j in current_jobs if not failed_only or (j["status"] == "completed" and j["conclusion"] in FAILED)]
    if not again:
        raise Conflict("This workflow run has no failed jobs to re-run.")
    attempt = row["run_attempt"] + 1
    for job in again:
        db.update(
            jobs,
            job["id"],
            run_attempt=attempt,
            status="queued",
            conclusion=None,
            failed_step=None,
            started_at=None,
            completed_at=None,
        )
    return db.update(
        workflow_runs,
        row["id"],
        run_attempt=attempt,
        status="queued",
        conclusion=None,
        triggering_actor_id=viewer.user_id,
        updated_at=db.now_iso(),
    )
