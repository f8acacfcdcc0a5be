"""Every sentence of a sheet and its key, in English and in Spanish (LaTeX text).

Kept in one table so a course can check (or change) the wording in one place;
the Spanish is the vocabulary of Spanish AI course notes: *poda alfa-beta*,
*nodo de azar*, *mejor jugada*, *variante principal*.
"""

from __future__ import annotations

__all__ = ["LANGUAGES", "words"]

LANGUAGES = ("en", "es")

_EN = {
    "sheet title": "Game trees: exercises",
    "key title": "Game trees: answer key",
    "name": "Name",
    "exercise": "Exercise",
    "question minimax": "Apply minimax. Write the value of every node in it, and give the best move at the root.",
    "question alphabeta": (
        "Apply minimax with alpha-beta pruning, children from left to right. Write the value of every node "
        "you visit, and $\\alpha$ and $\\beta$ beside every inner node; give the best move at the root and "
        "cross out the pruned branches."),
    "question expectiminimax": (
        "Apply expectiminimax. Write the value of every node in it (as an exact fraction where it is not a "
        "whole number), and give the best move at the root."),
    "legend": ("$\\triangle$ MAX node \\quad $\\triangledown$ MIN node \\quad $\\bigcirc$ chance node "
               "(probability on each branch) \\quad $\\square$ leaf (utility for MAX)"),
    "root value": "Value of the root",
    "best move": "Best move",
    "pruned nodes": "Pruned (topmost nodes)",
    "best move (summary)": "best move",
    "value": "value",
    "principal variation": "principal variation",
    "pruned": "pruned",
    "none": "none",
    "cutoffs": "cut-offs",
    "visited": "nodes visited",
    "of": "of",
    "key legend": (
        "Thick green and $\\star$: the principal variation. Dashed grey with a red mark: pruned. "
        "$\\leq v$ / $\\geq v$: a bound (the node's search stopped early), not its value. Beside each node: "
        "the $\\alpha$ and $\\beta$ it returned with, and in red the condition that cut."),
    "algorithm minimax": "minimax",
    "algorithm alphabeta": "alpha-beta",
    "form hard": "Use fail-hard alpha-beta: after a cut-off a call returns the bound it reached.",
    "form practical": "Use the course notes' alpha-beta: each call returns its own $\\alpha$ (MAX) or $\\beta$ (MIN), cut or not.",
    "algorithm expectiminimax": "expectiminimax",
    "tree title": "handout, exercise",
}

_ES = {
    "sheet title": "Árboles de juego: ejercicios",
    "key title": "Árboles de juego: soluciones",
    "name": "Nombre",
    "exercise": "Ejercicio",
    "question minimax": (
        "Aplica el algoritmo minimax. Escribe el valor de cada nodo del árbol e indica la mejor jugada "
        "en la raíz."),
    "question alphabeta": (
        "Aplica minimax con poda alfa-beta, explorando los hijos de izquierda a derecha. Escribe el valor de "
        "cada nodo que visites y, junto a cada nodo interior, los valores de $\\alpha$ y $\\beta$; indica la "
        "mejor jugada en la raíz y tacha las ramas podadas."),
    "question expectiminimax": (
        "Aplica el algoritmo expectiminimax. Escribe el valor de cada nodo del árbol (como fracción exacta "
        "cuando no sea un número entero) e indica la mejor jugada en la raíz."),
    "legend": ("$\\triangle$ nodo MAX \\quad $\\triangledown$ nodo MIN \\quad $\\bigcirc$ nodo de azar "
               "(probabilidad en cada rama) \\quad $\\square$ hoja (utilidad para MAX)"),
    "root value": "Valor de la raíz",
    "best move": "Mejor jugada",
    "pruned nodes": "Podados (nodos más altos)",
    "best move (summary)": "mejor jugada",
    "value": "valor",
    "principal variation": "variante principal",
    "pruned": "podados",
    "none": "ninguno",
    "cutoffs": "podas",
    "visited": "nodos visitados",
    "of": "de",
    "key legend": (
        "En verde y trazo grueso, con $\\star$: la variante principal. Discontinuo y en gris, con una marca roja: "
        "lo podado. $\\leq v$ / $\\geq v$: una cota (la búsqueda del nodo se cortó), no su valor. Junto a cada nodo: los valores de $\\alpha$ y $\\beta$ con los que devolvió su valor y, en rojo, la "
        "condición de poda."),
    "algorithm minimax": "minimax",
    "algorithm alphabeta": "poda alfa-beta",
    "form hard": "Usa la versión fail-hard: tras una poda, la llamada devuelve la cota alcanzada.",
    "form practical": "Usa la poda alfa-beta de los apuntes: cada llamada devuelve su propio $\\alpha$ (MAX) o $\\beta$ (MIN), haya poda o no.",
    "algorithm expectiminimax": "expectiminimax",
    "tree title": "hoja de ejercicios, ejercicio",
}

_TABLES = {"en": _EN, "es": _ES}


def words(lang: str) -> dict[str, str]:
    """The sentences of language ``lang`` (``en`` or ``es``)."""
    return _TABLES[lang]
