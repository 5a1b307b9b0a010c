"""Zendesk Support: tickets, comments, users, organizations, groups, macros, views, SLA policies and CSAT."""
