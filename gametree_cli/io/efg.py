"""Gambit's extensive-form text format (``.efg``, "EFG 2 R" / "EFG 2 D") <-> tree documents.

Gambit is where game theorists keep their extensive-form games, so reading
its files lets gametree solve them; writing them lets a Gambit user check our
answers there. Both directions work on the *document* (the plain dict a tree
file parses to, contract section 1) and never touch the core model, so this
module stays a pure translator.

Reading (:func:`read_efg`):

* nodes come in preorder: ``p`` (player), ``c`` (chance), ``t`` (terminal);
  an outcome on an inner node adds its payoffs to every terminal below it;
  an outcome number seen again without payoffs reuses the first ones (a
  repeated declaration must match it, as Gambit requires);
* gametree solves perfect-information trees only: a player's information set
  reached at two nodes is refused;
* a one-player game (a decision problem, perhaps with chance moves) becomes
  a max-only document (every decision node ``type: max``, a leaf's value the
  one payoff; ``players`` is the player and ``(no opponent)``, since a
  document names two), solved by minimax, or expectiminimax with chance;
* a two-player game whose terminal payoffs all sum to one constant becomes a
  max/min document (player 1 is ``max``, a leaf's value is player 1's payoff);
  a game of three or more players becomes an n-player document (``player``
  is the 0-based index, a leaf's value the payoff vector); a two-player game
  that is not constant-sum is refused unless ``allow_general_sum=True``;
* numbers stay exact: integers and fractions (``19/20``) are summed as
  fractions and written as ints or ``"a/b"`` strings; a decimal (``.90``)
  anywhere in a sum makes the result a float;
* a node's name becomes its ``id`` when it is non-empty, unique in the file,
  and does not clash with another node's default id; action labels become
  ``move``.

Writing (:func:`write_efg`) is the reverse, with every decision node in its
own information set, so ``read_efg(write_efg(doc))`` is ``doc`` again up to
defaults made explicit (moves, uniform probabilities, player indexes).
"""

from __future__ import annotations

from typing import Any

from .efg_build import _build_nodes, _check_constant_sum, _player_names
from .efg_lexer import _tokenize
from .efg_parse import _Parser
from .efg_write import write_efg

__all__ = ["read_efg", "write_efg", "ONE_PLAYER_OPPONENT"]

#: The second name of a one-player game's document (tree documents name two players).
ONE_PLAYER_OPPONENT = "(no opponent)"


def read_efg(text: str, filename: str = "<efg>", *, allow_general_sum: bool = False) -> dict[str, Any]:
    """Read a Gambit ``.efg`` file into a tree document.

    Args:
        text: the file's contents.
        filename: how errors name the file.
        allow_general_sum: accept a two-player game that is not constant-sum;
            the document then has payoff vectors, ``player`` indexes and
            ``"general_sum": true`` (gametree's two-player algorithms can't
            solve it, but it can be written back or inspected).

    Returns:
        A tree document (contract section 1).

    Raises:
        TreeFormatError: a syntax error, an inconsistent declaration, an
            imperfect-information game, or a two-player game that is not
            constant-sum (unless allowed); always with the line number.
    """
    parser = _Parser(_tokenize(text, filename), filename)
    parser.header()
    parser.body()
    records = parser.records

    general = False
    if len(parser.players) == 2:
        general = _check_constant_sum(records, filename, allow_general_sum)
    vectors = general or len(parser.players) > 2

    document: dict[str, Any] = {}
    if parser.title.strip():  # kept as written: gametree's own files round-trip
        document["title"] = parser.title
    if parser.comment.strip():
        document["description"] = parser.comment.strip()
    document["players"] = _player_names(parser.players + [ONE_PLAYER_OPPONENT] * (len(parser.players) == 1))
    if general:
        document["general_sum"] = True
    document["root"] = _build_nodes(records, vectors)
    return document
