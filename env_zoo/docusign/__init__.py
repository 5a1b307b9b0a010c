"""DocuSign eSignature REST API v2.1: templates, envelopes, recipients in routing order, tabs, voiding, audit."""
