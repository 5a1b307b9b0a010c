"""Cloudflare API v4: zones, DNS records (BIND import/export), settings, page rules, cache purge, DNSSEC, members."""
