"""envfactory-gym: executable, stateful tool-use environments as gymnasium environments.

Importing the package registers every environment of the zoo as `envfactory/<Name>-v<N>`.
"""

from .actions import HermesParser, ParsedAction, ToolCall
from .database import Database, Page, paginate
from .env import ToolUseEnv
from .errors import Conflict, InvalidRequest, NotFound, PermissionDenied, ToolError
from .registry import load_zoo_environment, register_zoo, resolve, zoo_keys
from .reward import RewardBreakdown, RewardConfig
from .session import ToolSession
from .spec import EnvironmentSpec, ToolSpec, Unordered, tool
from .tasks import GroundTruthCall, Task, Turn, load_tasks

__version__ = "0.1.0"

ENV_IDS = register_zoo()

__all__ = [
    "Conflict", "Database", "ENV_IDS", "EnvironmentSpec", "GroundTruthCall", "HermesParser", "InvalidRequest",
    "NotFound", "Page", "ParsedAction", "PermissionDenied", "RewardBreakdown", "RewardConfig", "Task", "ToolCall",
    "ToolError", "ToolSession", "ToolSpec", "ToolUseEnv", "Turn", "Unordered", "load_tasks", "load_zoo_environment",
    "paginate", "register_zoo", "resolve", "tool", "zoo_keys",
]
