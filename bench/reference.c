/* The plain C reference of `make bench` (bench/run.py compiles it with cc at run time; never shipped).

   What a C programmer would write to solve a gametree JSON file: read the
   whole file, parse it with a small recursive-descent JSON reader into
   node arrays (preorder: kind, first child, next sibling, value), run
   minimax or AIMA's fail-soft alpha-beta recursively, print the value.
   With an OUT file it also writes the JSON result the contract asks for
   (CONTRACT.md section 3), so that "JSON in, JSON out" compares like with
   like: "algorithm", "value", "best_move", "principal_variation",
   "pruned" (the topmost unvisited nodes), "visit_order", "nodes" (one
   entry per node: {"visited":true,"value":V} or {"visited":false}) and
   "stats" (nodes visited, leaves evaluated, cut-offs, counted also at a
   last child as the contract says), with gametree's default ids ("root",
   then 1.2.3 paths). gametree writes these and its own additions (each
   node's alpha, beta and type, "best_moves", "depth", "players",
   "options"); tests/test_bench_reference.py checks on random trees that
   the two agree on the contract's keys. MODE "alphabeta-visited" writes
   what this program wrote before 2026-11-25: one entry per visited node
   (id and value), no pruned nodes, no visit order; the bench keeps it as
   a row. Only what the benchmark trees use is read: objects with "type",
   "children" and integer "value", bare integer leaves; other keys are
   skipped.

   Usage: reference MODE FILE [OUT]   (MODE: minimax | alphabeta | alphabeta-visited)  */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LEAF, MAX, MIN };

static char *text;
static size_t at, length;
static int *kind, *first, *next;
static long long *value;
static unsigned char *seen;
static long long *result;
static int nodes, capacity;
static long long visited, leaves, cutoffs;

static void fail(const char *why) {
    fprintf(stderr, "reference: %s at byte %zu\n", why, at);
    exit(2);
}

static void space(void) {
    while (at < length && (text[at] == ' ' || text[at] == '\n' || text[at] == '\r' || text[at] == '\t')) at++;
}

static void skip_string(void) {
    at++; /* the opening quote */
    while (at < length && text[at] != '"') at += text[at] == '\\' ? 2 : 1;
    at++;
}

static long long integer(void) {
    int negative = text[at] == '-';
    long long number = 0;
    if (negative) at++;
    while (at < length && text[at] >= '0' && text[at] <= '9') number = number * 10 + (text[at++] - '0');
    return negative ? -number : number;
}

static void skip_value(void) {
    space();
    char c = text[at];
    if (c == '"') { skip_string(); return; }
    if (c == '{' || c == '[') {
        int depth = 0;
        do {
            if (text[at] == '"') { skip_string(); continue; }
            if (text[at] == '{' || text[at] == '[') depth++;
            if (text[at] == '}' || text[at] == ']') depth--;
            at++;
        } while (depth > 0 && at < length);
        return;
    }
    while (at < length && text[at] != ',' && text[at] != '}' && text[at] != ']') at++;
}

static int new_node(int parent_kind) {
    if (nodes == capacity) {
        capacity = capacity ? capacity * 2 : 1 << 16;
        kind = realloc(kind, capacity * sizeof *kind);
        first = realloc(first, capacity * sizeof *first);
        next = realloc(next, capacity * sizeof *next);
        value = realloc(value, capacity * sizeof *value);
        if (!kind || !first || !next || !value) fail("out of memory");
    }
    kind[nodes] = parent_kind == MAX ? MIN : MAX; /* alternate unless "type" says otherwise */
    first[nodes] = next[nodes] = -1;
    value[nodes] = 0;
    return nodes++;
}

static int node(int parent_kind);

static void children(int self) {
    int last = -1;
    at++; /* [ */
    space();
    if (text[at] == ']') { at++; return; }
    for (;;) {
        int child = node(kind[self]);
        if (last < 0) first[self] = child; else next[last] = child;
        last = child;
        space();
        if (text[at] == ',') { at++; continue; }
        if (text[at] == ']') { at++; return; }
        fail("expected , or ]");
    }
}

static int node(int parent_kind) {
    space();
    int self = new_node(parent_kind);
    if (text[at] == '-' || (text[at] >= '0' && text[at] <= '9')) {
        kind[self] = LEAF;
        value[self] = integer();
        return self;
    }
    if (text[at] == '[') { children(self); return self; }
    if (text[at] != '{') fail("expected a node");
    at++;
    int has_children = 0;
    for (;;) {
        space();
        if (text[at] == '}') { at++; break; }
        if (text[at] == ',') { at++; continue; }
        size_t key = at + 1;
        skip_string();
        space();
        at++; /* : */
        space();
        if (!strncmp(text + key, "type\"", 5)) {
            kind[self] = !strncmp(text + at, "\"min\"", 5) ? MIN : MAX;
            skip_string();
        } else if (!strncmp(text + key, "children\"", 9)) {
            children(self);
            has_children = 1;
        } else if (!strncmp(text + key, "value\"", 6)) {
            value[self] = integer();
        } else {
            skip_value();
        }
    }
    if (!has_children) kind[self] = LEAF;
    return self;
}

static long long minimax(int n) {
    visited++;
    seen[n] = 1;
    if (kind[n] == LEAF) { leaves++; return result[n] = value[n]; }
    long long best = kind[n] == MAX ? LLONG_MIN : LLONG_MAX;
    for (int c = first[n]; c >= 0; c = next[c]) {
        long long v = minimax(c);
        if (kind[n] == MAX ? v > best : v < best) best = v;
    }
    return result[n] = best;
}

static long long alphabeta(int n, long long alpha, long long beta) {
    visited++;
    seen[n] = 1;
    if (kind[n] == LEAF) { leaves++; return result[n] = value[n]; }
    long long v;
    if (kind[n] == MAX) {
        v = LLONG_MIN;
        for (int c = first[n]; c >= 0; c = next[c]) {
            long long w = alphabeta(c, alpha, beta);
            if (w > v) v = w;
            if (v >= beta) { cutoffs++; break; }
            if (v > alpha) alpha = v;
        }
    } else {
        v = LLONG_MAX;
        for (int c = first[n]; c >= 0; c = next[c]) {
            long long w = alphabeta(c, alpha, beta);
            if (w < v) v = w;
            if (v <= alpha) { cutoffs++; break; }
            if (v < beta) beta = v;
        }
    }
    return result[n] = v;
}

static char path[4096];

/* The result is built in one buffer (memcpy and a small integer formatter, not fprintf: the
   reference should be what a C programmer would write to be fast) and written with one fwrite. */
static char *buffer;
static size_t filled, room;

static void put(const char *s, size_t n) {
    if (filled + n > room) {
        room = (filled + n) * 2;
        buffer = realloc(buffer, room);
        if (!buffer) fail("out of memory");
    }
    memcpy(buffer + filled, s, n);
    filled += n;
}

static void put_text(const char *s) { put(s, strlen(s)); }

static size_t format_int(char *to, long long v) {
    char digits[24];
    int i = 24;
    unsigned long long u = v < 0 ? -(unsigned long long)v : (unsigned long long)v;
    do { digits[--i] = (char)('0' + u % 10); u /= 10; } while (u);
    if (v < 0) digits[--i] = '-';
    memcpy(to, digits + i, 24 - i);
    return 24 - i;
}

static void put_int(long long v) { char text[24]; put(text, format_int(text, v)); }

/* The id of child POSITION of the node whose id is path[0..used) (the root's is "root", used 0). */
static size_t child_id(size_t used, int position) {
    if (used) path[used++] = '.';
    used += format_int(path + used, position);
    path[used] = 0;
    return used;
}

static void put_id(size_t used, int comma) {
    put(comma ? ",\n    \"" : "\n    \"", comma ? 7 : 6);
    if (used) put(path, used); else put("root", 4);
    put("\"", 1);
}

/* One pass over the tree in preorder with each node's id in `path`; WHAT says which nodes it writes. */
enum { VISITED_ONLY, PRUNED, ORDER, EVERY };

static void write_ids(int n, size_t used, int *comma, int what) {
    if (!seen[n]) {
        if (what == PRUNED) put_id(used, *comma), *comma = 1;
        else if (what == EVERY) put_id(used, *comma), put_text(": {\"visited\":false}"), *comma = 1;
        if (what != EVERY) return;
    } else if (what == ORDER) {
        put_id(used, *comma), *comma = 1;
    } else if (what == EVERY || what == VISITED_ONLY) {
        put_id(used, *comma), put_text(": {\"visited\":true,\"value\":"), put_int(result[n]), put("}", 1), *comma = 1;
    }
    int position = 1;
    for (int c = first[n]; c >= 0; c = next[c], position++) {
        write_ids(c, child_id(used, position), comma, what);
        path[used] = 0;
    }
}

static void write_list(const char *key, int root, int what, const char *open, const char *close) {
    int comma = 0;
    put_text(",\n  \""), put_text(key), put_text("\": "), put_text(open);
    write_ids(root, 0, &comma, what);
    put_text("\n  "), put_text(close);
}

/* The principal variation: from the root, the first visited child whose value is its parent's. */
static void write_variation(int root) {
    size_t used = 0;
    int comma = 0;
    put_text(",\n  \"principal_variation\": [");
    for (int n = root; kind[n] != LEAF;) {
        int position = 1, chosen = -1;
        for (int c = first[n]; c >= 0; c = next[c], position++)
            if (seen[c] && result[c] == result[n]) { chosen = c; break; }
        if (chosen < 0) break;
        used = child_id(used, position);
        put_id(used, comma);
        comma = 1;
        n = chosen;
    }
    put_text("\n  ]");
    path[0] = 0;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: reference minimax|alphabeta|alphabeta-visited FILE [OUT]\n"); return 2; }
    FILE *in = fopen(argv[2], "rb");
    if (!in) { perror(argv[2]); return 2; }
    fseek(in, 0, SEEK_END);
    length = (size_t)ftell(in);
    fseek(in, 0, SEEK_SET);
    text = malloc(length + 1);
    if (!text || fread(text, 1, length, in) != length) fail("cannot read");
    text[length] = 0;
    fclose(in);
    /* the document: {"title": ..., "root": NODE} */
    int root = -1;
    space();
    at++;
    for (;;) {
        space();
        if (text[at] == '}') break;
        if (text[at] == ',') { at++; continue; }
        size_t key = at + 1;
        skip_string();
        space();
        at++;
        if (!strncmp(text + key, "root\"", 5)) root = node(MIN); else skip_value();
    }
    if (root < 0) fail("no root");
    seen = calloc(nodes, 1);
    result = malloc(nodes * sizeof *result);
    int only_visited = !strcmp(argv[1], "alphabeta-visited");
    int prune = only_visited || !strcmp(argv[1], "alphabeta");
    long long answer = prune ? alphabeta(root, LLONG_MIN, LLONG_MAX) : minimax(root);
    int best = 1, position = 1;
    for (int c = first[root]; c >= 0; c = next[c], position++)
        if (seen[c] && result[c] == answer) { best = position; break; }
    if (argc > 3) {
        FILE *out = fopen(argv[3], "wb");
        if (!out) { perror(argv[3]); return 2; }
        put_text("{\n  \"algorithm\": \""), put_text(prune ? "alphabeta" : "minimax");
        put_text("\",\n  \"value\": "), put_int(answer), put_text(",\n  \"best_move\": \""), put_int(best), put("\"", 1);
        if (only_visited) {
            write_list("nodes", root, VISITED_ONLY, "{", "}");
        } else {
            write_variation(root);
            write_list("pruned", root, PRUNED, "[", "]");
            write_list("visit_order", root, ORDER, "[", "]");
            write_list("nodes", root, EVERY, "{", "}");
        }
        put_text(",\n  \"stats\": {\"nodes_visited\": "), put_int(visited), put_text(", \"leaves_evaluated\": ");
        put_int(leaves), put_text(", \"cutoffs\": "), put_int(cutoffs), put_text("}\n}\n");
        if (fwrite(buffer, 1, filled, out) != filled || fclose(out)) { perror(argv[3]); return 2; }
    }
    printf("{\"value\": \"%lld\", \"visited\": %lld, \"nodes\": %d}\n", answer, visited, nodes);
    return 0;
}
