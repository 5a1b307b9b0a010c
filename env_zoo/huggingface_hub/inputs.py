"""The Hub's input shapes as types, so the schema shows them: repo ids, branch and tag names, kinds, statuses, and
the operations of a commit."""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, Field

from envfactory_gym.fields import ErrorText, bounded, text

RepoType = Literal["model", "dataset", "space"]
RepoId = Annotated[
    str,
    Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9](?:[A-Za-z0-9._-]{0,94}[A-Za-z0-9])?$"),
    ErrorText(
        "Repo id must be 'namespace/name': alphanumeric characters, '-', '_' and '.'; '-' and '.' cannot start "
        "or end the name, max length is 96."
    ),
]
Username = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,41}$"), ErrorText("Not a valid username.")]
RefName = Annotated[
    str,
    Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$"),
    ErrorText("Invalid reference name: letters, digits, '.', '_' and '-', starting with a letter or digit."),
]
Revision = Annotated[str, text(120)]
PathInRepo = Annotated[
    str,
    Field(pattern=r"^[^/\\][^\\]{0,199}$"),
    ErrorText("path_in_repo must be a relative path inside the repo."),
]
Title = Annotated[str, text(200, 3)]
CommentText = Annotated[str, text(65536)]
Limit = Annotated[int, bounded(1, 100)]
DiscussionNum = Annotated[int, bounded(1)]
Gated = Literal["auto", "manual", False]
SpaceSdk = Literal["gradio", "streamlit", "docker", "static"]
OrgRole = Literal["read", "contributor", "write", "admin"]
ItemType = Literal["model", "dataset", "space", "paper"]
Note = Annotated[str, text(500)]


class CommitOperationAdd(BaseModel):
    """Add or overwrite a text file."""

    operation: Literal["add"]
    path_in_repo: PathInRepo
    content: Annotated[str, text(100000, 0)]


class CommitOperationDelete(BaseModel):
    """Delete a file."""

    operation: Literal["delete"]
    path_in_repo: PathInRepo


CommitOperation = Annotated[Union[CommitOperationAdd, CommitOperationDelete], Field(discriminator="operation")]
Operations = Annotated[list[CommitOperation], Field(min_length=1, max_length=50)]
Sort = Literal["downloads", "likes", "last_modified", "created_at"]
