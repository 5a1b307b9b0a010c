"""Prompts of the graph's LLM stages (refinement and parameter classification); answers are JSON objects."""

REFINE_SYSTEM = """You analyse the tools of one software environment and the dependency graph between them.
An edge `A -> B` means a realistic workflow calls A before B, usually because an output of A is an input of B.
Edges were found by embedding similarity of parameter names, so some are missing and some are spurious.
Answer with a JSON object only."""

REFINE_USER = """Environment: {env}
{description}

Tools (inputs marked * are required; outputs are JSON paths into the result):
{tools}

Current edges (A -> B via output of A -> input of B):
{edges}

1. Add missing logical dependencies: an output of A that B needs as input, or a workflow order that matters even
   without shared parameters. Tools without parameters (such as a delete-all or list-all tool) must not stay
   isolated: connect them to the tools they naturally follow or precede.
2. Remove spurious edges: A's output can never be a meaningful input of B, or the order makes no sense.

Answer as {{"add": [{{"from": A, "to": B, "output": output path of A or null, "input": input name of B or null,
"reason": short reason}}], "remove": [{{"from": A, "to": B, "reason": short reason}}]}}."""

CLASSIFY_SYSTEM = """You classify the input parameters of tools that a user's assistant calls.
External: a human user could naturally say the value (a name, title, city, date, amount, free text, a choice).
Internal: system state the user would not know or recall (ids, handles, cursors, tokens); the assistant must
get it from the output of an earlier tool call. Answer with a JSON object only."""

CLASSIFY_USER = """Environment: {env}
{description}

Tools:
{tools}

Classify each of these inputs:
{keys}

Answer as {{"roles": {{"tool.input": "internal" or "external", ...}}}} with every input listed above."""
