"""EnvGen's data: the metadata `m` (the blueprint), unit tests, the draft environment, error reports and the
per-environment run record."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Component = Literal["metadata", "schema", "tool code", "test"]
#: Order in which components are revised when a report names several (an unimportable schema hides the rest).
COMPONENTS: tuple[Component, ...] = ("schema", "metadata", "tool code", "test")
CRITERIA = {
    1: "interface matches the metadata",
    2: "imports and executes",
    3: "results match the expected behaviour",
    4: "database transitions",
}
_KEY = re.compile(r"^[a-z][a-z0-9_]*$")


class EnvGenError(RuntimeError):
    """A stage could not go on (an unusable LLM answer outside the revision loop)."""

    def __init__(self, stage: str, reason: str) -> None:
        super().__init__(f"{stage}: {reason}")
        self.stage = stage
        self.reason = reason


class ToolSketch(BaseModel):
    """One tool of the blueprint: its name, behaviour and parameter schema (a JSON-schema object)."""

    name: str
    description: str
    read_only: bool
    user_only: bool = False
    parameters: dict[str, Any] = Field(default_factory=lambda: {"type": "object", "properties": {}, "required": []})
    returns: str = ""

    @property
    def properties(self) -> dict[str, dict[str, Any]]:
        """Parameter name -> JSON schema."""
        return self.parameters.get("properties", {})

    @property
    def required(self) -> list[str]:
        """Names of the required parameters."""
        return list(self.parameters.get("required", []))


class EnvMetadata(BaseModel):
    """The metadata `m` of a new environment (paper 3.2): identity, grounding and the tool interface."""

    key: str = Field(description="folder name in env_zoo, snake_case")
    name: str = Field(description="gymnasium name, CamelCase (envfactory/<name>-v<version>)")
    version: int = 0
    domain: str
    product: str
    docs_url: str
    description: str
    source: str = Field("", description="id of the source document the design is grounded in")
    tools: list[ToolSketch]

    def tool(self, name: str) -> ToolSketch | None:
        """The sketch of one tool, if the blueprint has it."""
        return next((t for t in self.tools if t.name == name), None)

    def zoo_metadata(self, provenance: dict[str, Any]) -> dict[str, Any]:
        """The environment's metadata.json."""
        return {
            "name": self.name,
            "version": self.version,
            "domain": self.domain,
            "product": self.product,
            "docs_url": self.docs_url,
            "description": self.description,
            "provenance": provenance,
        }

    @property
    def valid_key(self) -> bool:
        """Whether `key` can be a folder and package name."""
        return bool(_KEY.match(self.key))


class Call(BaseModel):
    """A tool call of a unit test's setup."""

    model_config = ConfigDict(extra="forbid")
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class StateChange(BaseModel):
    """The database transition a call must make; rows not listed must not change."""

    model_config = ConfigDict(extra="forbid")
    created: dict[str, list[dict[str, Any]]] = Field(default_factory=dict, description="table -> new rows (subsets)")
    updated: dict[str, dict[str, dict[str, Any]]] = Field(
        default_factory=dict, description="table -> key -> columns after the call"
    )
    deleted: dict[str, list[str]] = Field(default_factory=dict, description="table -> removed keys")


class UnitTest(BaseModel):
    """One test of the test agent: setup calls, then one call with its expected output or error and transition."""

    model_config = ConfigDict(extra="forbid")
    name: str
    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    setup: list[Call] = Field(default_factory=list)
    expect_error: str | None = Field(None, description="error kind (NotFound, Conflict, ...); None: must succeed")
    expect_output: Any = Field(None, description="a subset of the output that must match")
    expect_state: StateChange | None = None


class Draft(BaseModel):
    """The environment under construction: `m`, the database model D, the code pi, and the test agent's work."""

    metadata: EnvMetadata
    schema_py: str
    seed: dict[str, Any]
    tools_py: str
    unit_tests: list[UnitTest]
    tasks: list[dict[str, Any]]
    #: Further modules of the tool code beside tools.py, file name -> source (the zoo's layout splits objects and
    #: rules out of tools.py; a generated draft has none).
    modules: dict[str, str] = Field(default_factory=dict)


class Finding(BaseModel):
    """One failed check: the criterion, the component to blame, and where."""

    criterion: int
    component: Component
    check: str
    message: str
    tool: str | None = None
    test: str | None = None

    def line(self) -> str:
        """One readable line."""
        where = "".join(f" {k}={v}" for k, v in (("tool", self.tool), ("test", self.test)) if v)
        return (
            f"[{self.component}] criterion {self.criterion} ({CRITERIA[self.criterion]}), {self.check}{where}: "
            f"{self.message}"
        )


class ErrorReport(BaseModel):
    """The structured error report of one check of a draft."""

    iteration: int
    findings: list[Finding] = Field(default_factory=list)
    stats: dict[str, Any] = Field(default_factory=dict)
    sandbox: dict[str, Any] = Field(default_factory=dict)

    @property
    def passed(self) -> bool:
        """All four criteria hold."""
        return not self.findings

    def components(self) -> list[Component]:
        """The components to revise, in revision order."""
        named = {f.component for f in self.findings}
        return [c for c in COMPONENTS if c in named]

    def for_component(self, component: Component) -> list[Finding]:
        """The findings that blame one component."""
        return [f for f in self.findings if f.component == component]

    def render(self, component: Component | None = None) -> str:
        """The findings (of one component, or all) as text, one per line."""
        findings = self.for_component(component) if component else self.findings
        return "\n".join(f"- {f.line()}" for f in findings) or "- no findings"


class EnvGenRecord(BaseModel):
    """What one EnvGen run did: status, every report, iterations and the token cost per stage."""

    topic: str
    key: str = ""
    name: str = ""
    status: Literal["passed", "budget_exhausted", "failed"] = "failed"
    reason: str = ""
    iterations: int = 0
    revisions: int = 0
    budget: int = 0
    reports: list[ErrorReport] = Field(default_factory=list)
    revised: list[list[str]] = Field(default_factory=list, description="components revised after each report")
    usage: dict[str, dict[str, int | float]] = Field(default_factory=dict, description="per stage, and total")
    seconds: float = 0.0
    output: str | None = None
