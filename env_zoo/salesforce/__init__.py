"""Salesforce Sales and Service Cloud (REST API sObjects and SOQL) for one org."""
