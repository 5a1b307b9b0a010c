"""HubSpot CRM v3: contacts, companies, deals in pipelines, tasks and notes, associations and owners."""
