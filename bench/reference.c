/* The plain C reference of `make bench` (bench/run.py compiles it with cc at run time; never shipped).

   What a C programmer would write to solve a gametree JSON file: read the
   whole file, parse it with a small recursive-descent JSON reader into
   node arrays (preorder: kind, first child, next sibling, value), run
   minimax or AIMA's fail-soft alpha-beta recursively, print the value.
   With an OUT file it also writes a JSON result: the value, the best move
   and one line per visited node with its default id (1.2.3 paths, as
   gametree names nodes) and value, so that "JSON in, JSON out" compares
   like with like. Only what the benchmark trees use is read: objects with
   "type", "children" and integer "value", bare integer leaves; other keys
   are skipped.

   Usage: reference MODE FILE [OUT]   (MODE: minimax | alphabeta)          */

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
static long long visited;

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
    if (kind[n] == LEAF) return result[n] = value[n];
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
    if (kind[n] == LEAF) return result[n] = value[n];
    long long v;
    if (kind[n] == MAX) {
        v = LLONG_MIN;
        for (int c = first[n]; c >= 0; c = next[c]) {
            long long w = alphabeta(c, alpha, beta);
            if (w > v) v = w;
            if (v >= beta) break;
            if (v > alpha) alpha = v;
        }
    } else {
        v = LLONG_MAX;
        for (int c = first[n]; c >= 0; c = next[c]) {
            long long w = alphabeta(c, alpha, beta);
            if (w < v) v = w;
            if (v <= alpha) break;
            if (v < beta) beta = v;
        }
    }
    return result[n] = v;
}

static char path[4096];

static void write_nodes(FILE *out, int n, size_t used, int *comma) {
    if (!seen[n]) return;
    fprintf(out, "%s\n    \"%s\": {\"visited\":true,\"value\":%lld}", *comma ? "," : "", used ? path : "root", result[n]);
    *comma = 1;
    int position = 1;
    for (int c = first[n]; c >= 0; c = next[c], position++) {
        int wrote = snprintf(path + used, sizeof path - used, used ? ".%d" : "%d", position);
        write_nodes(out, c, used + wrote, comma);
        path[used] = 0;
    }
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: reference minimax|alphabeta FILE [OUT]\n"); return 2; }
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
    int prune = !strcmp(argv[1], "alphabeta");
    long long answer = prune ? alphabeta(root, LLONG_MIN, LLONG_MAX) : minimax(root);
    int best = 1, position = 1;
    for (int c = first[root]; c >= 0; c = next[c], position++)
        if (seen[c] && result[c] == answer) { best = position; break; }
    if (argc > 3) {
        FILE *out = fopen(argv[3], "wb");
        if (!out) { perror(argv[3]); return 2; }
        setvbuf(out, NULL, _IOFBF, 1 << 20);
        fprintf(out, "{\n  \"algorithm\": \"%s\",\n  \"value\": %lld,\n  \"best_move\": \"%d\",\n  \"nodes\": {", argv[1], answer, best);
        int comma = 0;
        write_nodes(out, root, 0, &comma);
        fprintf(out, "\n  },\n  \"stats\": {\"nodes_visited\": %lld}\n}\n", visited);
        fclose(out);
    }
    printf("{\"value\": \"%lld\", \"visited\": %lld, \"nodes\": %d}\n", answer, visited, nodes);
    return 0;
}
