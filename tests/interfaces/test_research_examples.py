"""Every Python example in docs/research.md runs as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


def test_the_document_has_one_example_per_library():
    assert len(EXAMPLES) == 4


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("example", EXAMPLES, ids=["openspiel", "pettingzoo", "gymnasium", "jax"])
def test_example_runs(example, capsys):
    exec(compile(example, str(DOC), "exec"), {"__name__": "__research_example__"})
    assert capsys.readouterr().out.strip()  # each example prints its result
