"""Okta Management API: users and their lifecycle, groups, group rules, apps, MFA factors and admin roles."""
