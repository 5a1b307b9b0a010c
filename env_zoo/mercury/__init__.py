"""Mercury, the business bank for startups, as its API presents one company's accounts and money movement."""
