"""``gametree schema``: the JSON Schema of tree files, for editors and CI jobs."""

import json
from typing import Annotated, Optional

import typer

from ..output import write_out
from ..exits import reports_errors

__all__ = ["schema_command", "schema_text"]


def schema_text() -> str:
    """The schema as indented JSON text."""
    from ...io.schema import tree_schema

    return json.dumps(tree_schema(), indent=2, ensure_ascii=False) + "\n"


@reports_errors
def schema_command(
    output: Annotated[Optional[str], typer.Option("--output", "-o", metavar="FILE", help="Write the schema to FILE instead of standard output.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")] = False,
) -> None:
    """Print the JSON Schema of tree files (point your editor's YAML/JSON support at it)."""
    from ...io.files import write_atomically  # here, not at the top: --help's start-up time
    if output is None or output == "-":
        write_out(schema_text())
        return
    write_atomically(output, schema_text(), force=force)
