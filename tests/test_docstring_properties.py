"""Property tests of the docstring parser every tool schema is built from: any Google-style docstring written
with any indentation, wrapping, types and trailing sections parses back to its description and its arguments."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from envfactory_gym.spec import _ARGS_HEADER, _SECTION_HEADER, parse_docstring

WORD = st.text(alphabet=string.ascii_letters + string.digits + ",.'-()/:", min_size=1, max_size=8)
NAME = st.from_regex(r"[a-z][a-z0-9_]{0,11}", fullmatch=True)
SECTIONS = st.sampled_from(["Returns", "Raises", "Examples", "Note"])


def _is_header(line: str) -> bool:
    return bool(_ARGS_HEADER.match(line) or _SECTION_HEADER.match(line))


@st.composite
def docstrings(draw: st.DrawFn) -> tuple[str, str, dict[str, str]]:
    """(docstring, its description, its arguments), written the way tool authors write them."""
    description_lines = draw(
        st.lists(st.lists(WORD, min_size=1, max_size=6).map(" ".join), min_size=1, max_size=4).filter(
            lambda lines: not any(_is_header(line) for line in lines)
        )
    )
    names = draw(st.lists(NAME, min_size=0, max_size=5, unique=True))
    arguments = {name: draw(st.lists(WORD, min_size=1, max_size=12)) for name in names}
    base = " " * draw(st.integers(0, 8))
    step = " " * draw(st.integers(1, 4))
    lines = [description_lines[0]] + [base + line for line in description_lines[1:]]
    if arguments:
        lines += ["", base + draw(st.sampled_from(["Args:", "Arguments:", "Parameters:"]))]
        for name, words in arguments.items():
            typed = draw(st.sampled_from(["", " (str)", " (int, optional)"]))
            cut = draw(st.integers(1, len(words)))
            lines.append(f"{base}{step}{name}{typed}: {' '.join(words[:cut])}")
            rest = words[cut:]
            while rest:  # wrapped further in, as editors wrap long descriptions
                take = draw(st.integers(1, len(rest)))
                lines.append(f"{base}{step}{step}{' '.join(rest[:take])}")
                rest = rest[take:]
    if draw(st.booleans()):
        lines += ["", base + draw(SECTIONS) + ":", base + step + "whatever: comes after is not an argument"]
    return "\n".join(lines), "\n".join(description_lines), {n: " ".join(w) for n, w in arguments.items()}


@settings(max_examples=300, deadline=None)
@given(docstrings())
def test_any_google_style_docstring_parses_back(case: tuple[str, str, dict[str, str]]) -> None:
    doc, description, arguments = case
    assert parse_docstring(doc) == (description, arguments)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400))
def test_any_text_parses_without_error_into_strings(doc: str) -> None:
    description, arguments = parse_docstring(doc)
    assert isinstance(description, str) and all(isinstance(v, str) for v in arguments.values())
