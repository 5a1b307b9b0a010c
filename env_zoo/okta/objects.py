"""Okta Management API resources as output models (User, Group, GroupRule, Application and its assignments,
Factor, Role) and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

ROLE_LABELS = {
    "SUPER_ADMIN": "Super Administrator",
    "ORG_ADMIN": "Organization Administrator",
    "USER_ADMIN": "Group Administrator",
    "HELP_DESK_ADMIN": "Help Desk Administrator",
    "GROUP_MEMBERSHIP_ADMIN": "Group Membership Administrator",
    "APP_ADMIN": "Application Administrator",
    "READ_ONLY_ADMIN": "Read-only Administrator",
}


class UserProfile(BaseModel):
    """A user's profile attributes."""

    login: str
    email: str
    firstName: str
    lastName: str
    department: str | None
    title: str | None
    mobilePhone: str | None


class User(BaseModel):
    """An Okta user."""

    id: str
    status: str = Field(
        description="STAGED, PROVISIONED, ACTIVE, RECOVERY, PASSWORD_EXPIRED, LOCKED_OUT, SUSPENDED or DEPROVISIONED"
    )
    created: str
    activated: str | None
    statusChanged: str | None
    lastLogin: str | None
    lastUpdated: str
    passwordChanged: str | None
    profile: UserProfile


class UserList(BaseModel):
    """One page of users."""

    users: list[User]
    after: str | None = Field(description="pass as `after` for the next page; null on the last page")


class Group(BaseModel):
    """An Okta group."""

    id: str
    type: str = Field(description="OKTA_GROUP, APP_GROUP (imported from an app: membership is read-only) or BUILT_IN")
    name: str
    description: str
    sourceAppId: str | None = Field(description="the app an APP_GROUP is imported from")
    created: str


class GroupList(BaseModel):
    """One page of groups."""

    groups: list[Group]
    after: str | None = Field(description="pass as `after` for the next page; null on the last page")


class GroupMember(BaseModel):
    """A member of a group, and the group rule that manages the membership, if any."""

    user: User
    managedByRuleId: str | None = Field(description="the group rule that assigned them; they can't be removed by hand")


class GroupMemberList(BaseModel):
    """One page of a group's members."""

    members: list[GroupMember]
    after: str | None = Field(description="pass as `after` for the next page; null on the last page")


class GroupRule(BaseModel):
    """A group rule: users whose profile matches the expression are assigned to the groups while it is ACTIVE."""

    id: str
    name: str
    status: str = Field(description="ACTIVE or INACTIVE")
    expression: str = Field(description='Okta expression language, e.g. user.department=="Sales"')
    groupIds: list[str]
    created: str
    lastUpdated: str


class GroupRuleList(BaseModel):
    """The org's group rules."""

    rules: list[GroupRule]


class Application(BaseModel):
    """An app integration."""

    id: str
    name: str
    label: str
    status: str = Field(description="ACTIVE or INACTIVE")
    signOnMode: str
    created: str


class AppList(BaseModel):
    """One page of apps."""

    apps: list[Application]
    after: str | None = Field(description="pass as `after` for the next page; null on the last page")


class AppUser(BaseModel):
    """A user assigned to an app, directly (USER) or only through a group (GROUP)."""

    id: str
    login: str
    status: str
    scope: str = Field(description="USER (assigned directly) or GROUP (only through an assigned group)")


class AppGroup(BaseModel):
    """A group assigned to an app."""

    id: str
    name: str
    priority: int


class AppAssignments(BaseModel):
    """Who is assigned to an app."""

    app: Application
    users: list[AppUser]
    groups: list[AppGroup]


class Factor(BaseModel):
    """An MFA factor enrolled for a user."""

    id: str
    factorType: str = Field(description="sms, push or token:software:totp")
    provider: str
    status: str = Field(description="ACTIVE or PENDING_ACTIVATION (the user still has to finish enrolling)")
    phoneNumber: str | None
    deviceName: str | None
    created: str


class FactorList(BaseModel):
    """A user's enrolled factors."""

    factors: list[Factor]


class Role(BaseModel):
    """An admin role assigned to a user."""

    id: str
    type: str
    label: str
    userId: str
    targets: list[str] = Field(description="the group ids the role is limited to; empty: the whole org")
    created: str


class RoleList(BaseModel):
    """Admin role assignments."""

    roles: list[Role]


class LifecycleResult(BaseModel):
    """The user after a lifecycle operation."""

    user: User
    activationUrl: str | None = None
    resetPasswordUrl: str | None = None


class Deleted(BaseModel):
    """What a delete removed."""

    id: str
    deleted: bool = True


def user_object(row: dict[str, Any]) -> User:
    """A stored user as Okta shows it."""
    return User(
        id=row["id"],
        status=row["status"],
        created=row["created"],
        activated=row["activated"],
        statusChanged=row["status_changed"],
        lastLogin=row["last_login"],
        lastUpdated=row["last_updated"],
        passwordChanged=row["password_changed"],
        profile=UserProfile(
            login=row["login"],
            email=row["email"],
            firstName=row["first_name"],
            lastName=row["last_name"],
            department=row["department"],
            title=row["title"],
            mobilePhone=row["mobile_phone"],
        ),
    )


def group_object(row: dict[str, Any]) -> Group:
    """A stored group."""
    return Group(
        id=row["id"],
        type=row["type"],
        name=row["name"],
        description=row["description"],
        sourceAppId=row["source_app_id"],
        created=row["created"],
    )


def rule_object(row: dict[str, Any]) -> GroupRule:
    """A stored group rule."""
    return GroupRule(
        id=row["id"],
        name=row["name"],
        status=row["status"],
        expression=row["expression"],
        groupIds=row["group_ids"],
        created=row["created"],
        lastUpdated=row["last_updated"],
    )


def app_object(row: dict[str, Any]) -> Application:
    """A stored app."""
    return Application(
        id=row["id"],
        name=row["name"],
        label=row["label"],
        status=row["status"],
        signOnMode=row["sign_on_mode"],
        created=row["created"],
    )


def factor_object(row: dict[str, Any]) -> Factor:
    """A stored factor."""
    return Factor(
        id=row["id"],
        factorType=row["factor_type"],
        provider=row["provider"],
        status=row["status"],
        phoneNumber=row["phone_number"],
        deviceName=row["device_name"],
        created=row["created"],
    )


def role_object(row: dict[str, Any]) -> Role:
    """A stored role assignment."""
    return Role(
        id=row["id"],
        type=row["type"],
        label=ROLE_LABELS[row["type"]],
        userId=row["user_id"],
        targets=row["targets"],
        created=row["created"],
    )


class SignedInAdmin(BaseModel):
    """The administrator the assistant now acts for, and their admin roles."""

    user: User
    roles: list[Role]
