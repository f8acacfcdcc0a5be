"""The annotated tree, as a course shows it: a view of one :class:`SearchRecord`.

Every node shows its id, the move into it, its kind (▲ max, ▼ min, ○ chance,
a player's name), its value (``≥ 8`` / ``≤ 2`` where it is a bound) and, for
pruning searches, the alpha/beta it returned with; a node where a cut-off
happened says why (a cut at the last child prunes nothing and says so);
pruned subtrees are drawn dim with a ✂ and no values; the principal
variation is bold green and marked ★ (visible without colour). Words in
English or Spanish (:mod:`.words`). A big tree is cut to its top levels,
with a note of what was left out.
"""

from __future__ import annotations

from ..core.model import CHANCE, LEAF, MAX, MIN, PLAYER, Tree
from ..core.numbers import Value, format_number, format_value
from ..core.levels import level_bounds
from ..search.record import SearchRecord
from ..search.record_facts import pruned_before, pruned_count
from .drawing import Branch, Drawing, Line
from .drawn_facts import DrawnFacts, drawn_facts, drawn_ids, subtree_sizes
from .words import PV_MARK, cut_reason, words

__all__ = ["annotated_tree", "summary_line", "render_result", "display_depth", "DEFAULT_MAX_NODES_SHOWN", "kind_label", "capped_children"]

DEFAULT_MAX_NODES_SHOWN = 400
#: a big tree is drawn at most this many levels deep unless asked (--show-depth)
MAX_LEVELS_SHOWN = 30
#: the summary line names at most this many equally good moves besides the best, then counts the rest
MAX_EQUAL_MOVES_SHOWN = 10

KIND_STYLE = {MAX: "bold red", MIN: "bold blue", CHANCE: "bold cyan", PLAYER: "bold magenta", LEAF: ""}


def kind_label(tree: Tree, node: int) -> Line:
    """``▲ max`` / ``▼ min`` / ``○ chance`` / ``◆ P2`` for decision and chance nodes."""
    kind = tree.kind[node]
    if kind == MAX:
        return Line("▲ max", style=KIND_STYLE[MAX])
    if kind == MIN:
        return Line("▼ min", style=KIND_STYLE[MIN])
    if kind == CHANCE:
        return Line("○ chance", style=KIND_STYLE[CHANCE])
    if kind == PLAYER:
        return Line(f"◆ {tree.player_name(node)}", style=KIND_STYLE[PLAYER])
    return Line("")


def display_depth(tree: Tree, max_nodes: int, max_levels: int = MAX_LEVELS_SHOWN) -> int | None:
    """The deepest level such that the levels down to it hold at most ``max_nodes``
    nodes (at least 1, at most ``max_levels``: a long chain drawn 400 levels
    deep is unreadable); None when the whole tree fits."""
    if len(tree) <= max_nodes:
        return None
    shown, depth = 1, 0
    start, end = 0, 1
    count = tree.count
    while True:
        size = sum(count[start:end])
        if not size or shown + size > max_nodes or depth >= max_levels:
            return max(depth, 1)
        shown += size
        depth += 1
        start, end = end, end + size


#: the kind of a max, min or chance node as drawn: its run of text (a player's name is the file's, escaped)
_KIND_RUNS = {MAX: ("▲ max", KIND_STYLE[MAX]), MIN: ("▼ min", KIND_STYLE[MIN]), CHANCE: ("○ chance", KIND_STYLE[CHANCE])}


def _label(record: SearchRecord, node: int, facts: DrawnFacts | None, at: int, name: str, on_pv: bool, pruned: bool,
           blank: bool, w: dict[str, str], lang: str = "en") -> Line:
    """The node's line; ``facts`` (None when ``blank``) hold what the record says of it, at position ``at``.

    Text of our own (words, marks, numbers: printable) goes in as runs (``put``), the file's names
    through :meth:`Line.append`, which escapes them: a few hundred labels of a big tree's view."""
    tree = record.tree
    text = Line()
    put = text.runs.append
    if on_pv:
        put((f"{PV_MARK} ", "bold green"))
    if node and tree.moves.get(node) is not None:
        text.append(f"{tree.move(node)} → ", style="dim" if pruned else "italic")
    if tree.prob is not None and tree.prob[node] is not None:
        put((f"[p={format_number(tree.prob[node])}] ", "cyan"))
    text.append(name, style="bold green" if on_pv else ("dim" if pruned else "bold"))
    kind = tree.kind[node]
    if kind in _KIND_RUNS:
        put((" ", ""))
        put(_KIND_RUNS[kind])
    elif kind == PLAYER:
        text.append(" ")
        text.append_line(kind_label(tree, node))
        side = coalition_side(record, node)
        if side is not None:
            put((f" {side}", KIND_STYLE[MAX if side.endswith("max") else MIN]))
    averaged = kind == CHANCE or (kind == MIN and record.algorithm == "expectimax")
    share = tree.extra[node].get("random") if node in tree.extra else None
    if averaged and kind == MIN and not blank:
        put((" " + w["averaged"], "cyan"))
    elif share:  # an opponent model: moves at random this share of the time
        put((" " + w["random"].format(share=format_number(share)), "cyan"))  # type: ignore[arg-type]
    if blank or facts is None:
        if tree.count[node] == 0:
            text.append(f"  {format_value(tree.value[node])}")
        elif node in tree.evals:
            # a depth-limited exercise needs the heuristic values as given
            text.append(f"  (eval {format_value(tree.evals[node])})", style="italic")
        return text
    if pruned:
        return text
    value, horizon, cut = facts.values[at], facts.horizon[at], facts.cuts[at]
    inner = tree.count[node] != 0
    if value is not None:
        reduced = _reduced_vector(record, node, value, horizon)
        if reduced is not None:  # paranoid: the vector, then the root player's number from it
            put((f"  {format_value(reduced)}", "dim"))
        put((f"  {facts.signs[at] or '='} ", ""))
        style = "bold green" if on_pv else "bold"
        if isinstance(value, tuple):
            text.append_line(value_text(value, tree.player[node] if kind == PLAYER and not horizon else None, style))
        else:
            put((format_value(value), style))
        if averaged and inner and not horizon and cut is None:
            put((" " + w["expected"], "cyan"))
    if horizon:
        put(("  " + w["eval_at_limit"], "italic"))
    bounds = facts.bounds[at]
    if bounds is not None and inner and not horizon:
        put((f"  [α={format_value(bounds[0])}, β={format_value(bounds[1])}]", "dim"))
    if record.bound is not None and node in record.bound and not horizon:
        put((f"  [Bound={format_value(record.bound[node])}]", "dim"))
    probe = record.probes.get(node) if record.probes else None
    if probe is not None:  # Star2: what the probe of the node's first move said
        side, found = probe
        shown = f"≥ {format_value(found)}" if side == "lower" else (
            f"≤ {format_value(found)}" if side == "upper" else f"{format_value(found)}, {w['no_bound']}")
        put(("  " + w["probe"].format(shown=shown), "cyan"))
    if cut is not None:
        said = w["last_child"] if facts.bound_reached[at] else w["cut"]
        put(("  " + said.format(reason=cut_reason(cut, lang)), "yellow"))
    return text


def value_text(value: Value, decider: int | None, style: str) -> Line:
    """A value, compact (``(1, 2, 6)``); in a vector the component of the player
    who chose it (``decider``) is emphasised: it is what decided the choice."""
    if not isinstance(value, tuple) or decider is None or not 0 <= decider < len(value):
        return Line(format_value(value), style=style)
    text = Line("(", style=style)
    for position, part in enumerate(value):
        if position:
            text.append(", ", style=style)
        text.append(format_number(part), style=f"{style} underline" if position == decider else style)
    text.append(")", style=style)
    return text


def coalition_side(record: SearchRecord, node: int) -> str | None:
    """Paranoid search: ``▲ max`` for the root player's nodes, ``▼ min`` for the coalition's."""
    root = record.options.get("root_player")
    tree = record.tree
    if root is None or tree.kind[node] != PLAYER:
        return None
    return "▲ max" if tree.player_name(node) == root else "▼ min"


def _reduced_vector(record: SearchRecord, node: int, value: Value, horizon: bool) -> Value | None:
    """The vector a scalar ``value`` was taken from (paranoid leaves and evals), else None."""
    tree = record.tree
    if tree.count[node] == 0:
        vector = tree.value[node]
    elif horizon:
        vector = tree.evals.get(node)
    else:
        return None
    if isinstance(vector, tuple) and not isinstance(value, tuple):
        return vector
    return None


def annotated_tree(
    record: SearchRecord,
    *,
    max_nodes: int = DEFAULT_MAX_NODES_SHOWN,
    depth: int | None = None,
    blank: bool = False,
    lang: str = "en",
) -> Drawing:
    """The annotated tree, and under it notes on what it leaves out.

    Args:
        record: what the search found.
        max_nodes: show only the top levels holding at most this many nodes.
        depth: show exactly this many levels below the root (overrides max_nodes).
        blank: structure and leaf values only (an exercise handout).
        lang: ``en`` or ``es`` (:mod:`.words`).
    """
    w = words(lang)
    tree = record.tree
    limit = depth if depth is not None else display_depth(tree, max_nodes)
    searched = None if blank else search_order(record)
    pv = set(record.principal_variation()) | {0} if not blank else set()
    pruned_roots = pruned_before(record, level_bounds(tree, limit)[-1][1] if limit is not None else len(tree))  # drawn
    count = tree.count
    root = Branch(Line())
    hidden_nodes = 0
    cut_off: list[tuple[int, Branch]] = []  # drawn nodes at the last level drawn, with children below it
    # the drawn nodes, parents first, each with its branch and its parent's position here (labels made after)
    drawn: list[tuple[int, Branch, int]] = [(0, root, -1)]
    # (node, rich parent, depth, its parent's position in ``drawn``)
    # (a negative node stands for the -node children of a wide node left out)
    stack: list[tuple[int, Branch, int, int]] = []
    left_out = 0

    def push_children(node: int, holder: Branch, level: int, up: int) -> None:
        nonlocal left_out
        children, omitted = capped_children(_drawn_children(tree, node, searched), max_nodes, pv)
        if omitted:
            left_out += omitted
            extra = children[max_nodes:]  # children on the principal variation, drawn after the gap
            for child in reversed(extra):
                stack.append((child, holder, level, up))
            stack.append((-omitted, holder, level, up))
            children = children[:max_nodes]
        for child in reversed(children):
            stack.append((child, holder, level, up))

    push_children(0, root, 1, 0)
    while stack:
        node, holder, level, up = stack.pop()
        if node < 0:
            holder.add(Line(w["more_children"].format(count=f"{-node:,}"), style="dim italic"))
            continue
        branch = holder.add(root.label)  # its label is made below, once every drawn node is known
        drawn.append((node, branch, up))
        n_children = count[node]
        if not n_children:
            continue
        if limit is not None and level >= limit:
            cut_off.append((node, branch))
            continue
        push_children(node, branch, level + 1, len(drawn) - 1)
    said: dict[int, Line] = {}  # one line a size, drawn under each node of that size (lines are only read)
    for (node, branch), size in zip(cut_off, subtree_sizes(tree, [node for node, _ in cut_off])):
        below = size - 1
        hidden_nodes += below
        line = said.get(below)
        if line is None:
            line = said[below] = Line(w["more_nodes"].format(count=f"{below:,}", s="s" if below != 1 else ""),
                                      style="dim italic")
        branch.children.append(Branch(line))
    hidden = len(cut_off)
    _make_labels(record, drawn, pv, pruned_roots, blank, w, lang, searched is not None)
    notes = _notes(w, record.options.get("order") if searched is not None else None, left_out, max_nodes,
                   (limit, hidden_nodes) if hidden else None)
    return Drawing(root, *notes)


def _make_labels(record: SearchRecord, drawn: list[tuple[int, Branch, int]], pv: set[int], pruned_roots: set[int],
                 blank: bool, w: dict[str, str], lang: str, reordered: bool) -> None:
    """Each drawn node's label, from the record's facts of all drawn nodes read at once (:mod:`.drawn_facts`):
    a node is drawn pruned below a pruned one, at a pruned root, or where the search never went."""
    tree = record.tree
    nodes = [node for node, _, _ in drawn]
    ups = [up for _, _, up in drawn]
    facts = None if blank else drawn_facts(record, nodes)
    names = drawn_ids(tree, nodes, ups)
    drawn[0][1].label = _label(record, 0, facts, 0, names[0], 0 in pv, False, blank, w, lang)
    is_pruned = [False] * len(drawn)
    first = tree.first
    for at in range(1, len(drawn)):
        node, branch, up = drawn[at]
        at_root = node in pruned_roots
        pruned = is_pruned[at] = is_pruned[up] or at_root or (facts is not None and facts.values[at] is None)
        label = _label(record, node, facts, at, names[at], node in pv and not pruned, pruned, blank, w, lang)
        if reordered:
            # searched out of file order: say where the child sits in the file
            label.prepend(f"#{node - first[nodes[up]] + 1} ", "dim")
        if at_root and not blank:
            label.append("  " + w["pruned"], style="yellow dim")
            label.stylize("dim")
        elif pruned and not blank:
            label.stylize("dim")
        branch.label = label


def _notes(w: dict[str, str], order: object, left_out: int, max_nodes: int,
           cut_at: tuple[int | None, int] | None) -> list[Line]:
    """What the drawing leaves out, said under it: another search order, wide nodes, levels below ``limit``."""
    notes: list[Line] = []
    if order is not None:
        notes.append(Line(w["order_note"].format(order=order), style="dim italic"))
    if left_out:
        notes.append(Line(w["wide_note"].format(cap=f"{max_nodes:,}", count=f"{left_out:,}"), style="dim italic"))
    if cut_at is not None:
        limit, hidden_nodes = cut_at
        plural = limit != 1
        notes.append(Line(w["levels_note"].format(limit=limit, count=f"{hidden_nodes:,}", s="s" if plural else "",
                                                  n="n" if plural else "", es="es" if plural else ""),
                          style="dim italic"))
    return notes


def search_order(record: SearchRecord) -> dict[int, int] | None:
    """When the search did not follow the file's order (``--order``): each
    visited node's rank in the order the search first entered it.

    Read from the record, not sorted again, so the drawing shows what the
    search did, whatever tree it sorted on (paranoid sorts a derived one).
    """
    order = record.options.get("order")
    if not isinstance(order, str) or order == "given" or record.order is None:
        return None
    return {node: rank for rank, node in enumerate(record.visit_order())}


def capped_children(children: list[int], cap: int, keep: set[int]) -> tuple[list[int], int]:
    """At most ``cap`` children, the first ones, then any beyond them that are in
    ``keep`` (the principal variation); and how many were left out. The one rule of every
    view that caps a wide node (this tree, the pictures: views/picture.py)."""
    if len(children) <= cap:
        return children, 0
    kept = children[:cap] + [child for child in children[cap:] if child in keep]
    return kept, len(children) - len(kept)


def _drawn_children(tree: Tree, node: int, searched: dict[int, int] | None) -> list[int]:
    """``node``'s children in drawing order: the visited ones as searched, then
    the unvisited ones in file order; without ``searched``, the file's order."""
    start = tree.first[node]
    children = range(start, start + tree.count[node])
    if searched is None:
        return list(children)
    last = len(searched)
    return sorted(children, key=lambda child: (searched.get(child, last), child))



def summary_line(record: SearchRecord, lang: str = "en") -> Line:
    """One line: value, best move (and the equally good ones, when the search can tell), nodes visited,
    leaves evaluated, cut-offs."""
    w = words(lang)
    stats = record.stats
    text = Line()
    text.append(f"{record.algorithm}: ", style="bold")
    text.append(f"{w['value']} ")
    text.append(format_value(record.value), style="bold green")
    if record.options.get("root_player") is not None and not isinstance(record.value, tuple):
        text.append(f" {w['for']} {record.options['root_player']}")
    best = record.best_move()
    if best is not None:
        text.append(f" · {w['best_move']} ")
        text.append(record.move(best), style="bold green")
        equal = [child for child in record.best_moves() or () if child != best]
        if equal:  # the first few: a root of 200,000 ties wrote a 1.7 MB line (the JSON lists them all)
            named = ", ".join(record.moves(equal[:MAX_EQUAL_MOVES_SHOWN]))
            if len(equal) > MAX_EQUAL_MOVES_SHOWN:
                named += " " + w["and_more"].format(count=f"{len(equal) - MAX_EQUAL_MOVES_SHOWN:,}")
            text.append(f" ({w['equally_good']}: {named})")
    text.append(f" · {w['nodes_visited']} {stats.nodes_visited:,} · {w['leaves_evaluated']} {stats.leaves_evaluated:,}")
    text.append(f" · {w['cutoffs']} {stats.cutoffs:,}")
    pruned = pruned_count(record)
    if pruned:
        text.append(f" · {w['pruned_subtrees']} {pruned:,}")
    if record.depth_limit is not None:
        text.append(f" · {w['depth_limit']} {record.depth_limit}")
    order = record.options.get("order")
    if isinstance(order, str) and order != "given":
        text.append(f" · {w['order']} {order}")
    return text


def render_result(record: SearchRecord, lang: str = "en", **options: object) -> Drawing:
    """Title, annotated tree and summary line together."""
    parts: list[Line | Branch] = []
    if record.tree.title:
        parts.append(Line(record.tree.title, style="bold underline"))
    parts.extend(annotated_tree(record, lang=lang, **options).parts)  # type: ignore[arg-type]
    parts.append(summary_line(record, lang))
    return Drawing(*parts)
