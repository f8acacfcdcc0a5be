"""Generated from the typer app by `make quick-table` (gametree_cli/cli/quick_table_write.py): do not edit.

What the quick path (quick.py) knows of the command line; tests/test_quick.py fails when it is out of date.
"""

# fmt: off
#: the variable that asks click for shell completion: typer answers it
COMPLETION_VARIABLE = '_GAMETREE_COMPLETE'
#: options before the command: flag -> parameter; each one's default and environment variable
GLOBAL_OPTIONS = {'--max-input-size': 'max_input_size'}
GLOBAL_DEFAULTS = {'max_input_size': '2G'}
GLOBAL_ENVIRONMENT = {'max_input_size': 'GAMETREE_MAX_INPUT_SIZE'}
#: command -> (its typer-free runner, its argument's parameter, {flag: (parameter, kind, values taken)},
#: {parameter: (kind, default)}); a kind is str, int, flag, or the name of an enum in choices.py
COMMANDS = {'solve': ('solve_run:run_solve',
           'tree_file',
           {'--algo': ('algo', 'str', 1),
            '--answers': ('answers_file', 'str', 1),
            '--bounds': ('bounds', 'str', 2),
            '--depth': ('depth', 'int', 1),
            '--force': ('force', 'flag', 0),
            '--format': ('output', 'OutputFormat', 1),
            '--lang': ('lang', 'Language', 1),
            '--max-nodes': ('max_nodes', 'int', 1),
            '--order': ('order', 'Order', 1),
            '--show-all': ('show_all', 'flag', 0),
            '--show-depth': ('show_depth', 'int', 1),
            '--strict': ('strict', 'flag', 0),
            '--sum': ('constant_sum', 'str', 1),
            '--ties': ('ties', 'str', 1),
            '--trace': ('trace', 'flag', 0),
            '--tree': ('tree_text', 'str', 1),
            '--variant': ('variant', 'Variant', 1),
            '-a': ('algo', 'str', 1),
            '-d': ('depth', 'int', 1),
            '-f': ('output', 'OutputFormat', 1)},
           {'algo': ('str', None),
            'answers_file': ('str', None),
            'bounds': ('str', None),
            'constant_sum': ('str', None),
            'depth': ('int', None),
            'force': ('flag', False),
            'lang': ('Language', 'en'),
            'max_nodes': ('int', None),
            'order': ('Order', 'given'),
            'output': ('OutputFormat', 'text'),
            'show_all': ('flag', False),
            'show_depth': ('int', None),
            'strict': ('flag', False),
            'ties': ('str', None),
            'trace': ('flag', False),
            'tree_text': ('str', None),
            'variant': ('Variant', 'soft')})}
#: the help pages at 80 columns or more: '' is `gametree --help`, then `gametree COMMAND --help`
HELP = {'': 'Usage: gametree [OPTIONS] COMMAND [ARGS]...\n'
     '\n'
     '  Solve explicit game trees (minimax, alpha-beta, expectiminimax, max-n) and\n'
     '  show the answer the way a course does.\n'
     '\n'
     'Options:\n'
     '  --max-input-size SIZE  Refuse input files bigger than this, e.g. 500M or 8G\n'
     '                         (docs/safety.md).  [env var: GAMETREE_MAX_INPUT_SIZE;\n'
     '                         default: 2G]\n'
     '  --help                 Show this message and exit.\n'
     '\n'
     'Commands:\n'
     '  solve     Solve a tree and show the annotated tree, the trace, or the...\n'
     '  check     Solve each exercise and compare the given answers: exit 0 all...\n'
     '  convert   Convert a tree file between YAML, JSON, the compact nested...\n'
     '  render    Draw the annotated tree: Graphviz DOT, SVG, PNG or PDF, or a...\n'
     "  schema    Print the JSON Schema of tree files (point your editor's...\n"
     '  random    Write a random exercise tree (YAML on standard output, or -o...\n'
     '  compare   Run every algorithm that fits the tree: value, best move,...\n'
     '  blank     Draw the tree without any computed value: an exercise to hand...\n'
     '  handout   Write an exercise sheet (PDF and LaTeX), its key and...\n'
     '  generate  Write the game tree of a classic game (tic-tac-toe,...\n',
 'blank': 'Usage: gametree blank [OPTIONS] [TREE]\n'
          '\n'
          '  Draw the tree without any computed value: an exercise to hand out.\n'
          '\n'
          'Arguments:\n'
          "  TREE  Tree file or '-' for standard input.\n"
          '\n'
          'Options:\n'
          "  --tree <str>        The tree inline, e.g. '[[3,12,8],[2,4,6],[14,5,2]]'.\n"
          '  --show-depth <int>  Draw this many levels of the tree (1 or more).\n'
          '  --show-all          Draw the whole tree, however big.\n'
          "  --lang <en|es>      Language of the drawing's words: en or es.  [default:\n"
          '                      en]\n'
          '  --help              Show this message and exit.\n',
 'check': 'Usage: gametree check [OPTIONS] {ANSWERS...}\n'
          '\n'
          '  Solve each exercise and compare the given answers: exit 0 all right, 1 some\n'
          '  wrong, 2 unreadable or invalid.\n'
          '\n'
          'Arguments:\n'
          '  ANSWERS...  Answer files, or folders searched for *.answers.yaml /\n'
          '              *.answers.json.  [required]\n'
          '\n'
          'Options:\n'
          '  --junit REPORT.xml        Also write a JUnit XML report (one testcase per\n'
          '                            exercise) for CI.\n'
          '  -f, --format <text|json>  text (a table) or json.  [default: text]\n'
          '  --lang <en|es>            Language of the table: en or es (JSON and JUnit\n'
          '                            stay as they are).  [default: en]\n'
          '  --help                    Show this message and exit.\n',
 'compare': 'Usage: gametree compare [OPTIONS] [TREE]\n'
            '\n'
            '  Run every algorithm that fits the tree: value, best move, nodes visited,\n'
            '  leaves, cut-offs, share pruned.\n'
            '\n'
            'Arguments:\n'
            "  TREE  Tree file or '-' for standard input.\n"
            '\n'
            'Options:\n'
            '  --tree <str>                The tree inline, e.g.\n'
            "                              '[[3,12,8],[2,4,6],[14,5,2]]'.\n"
            "  -d, --depth <int>           Stop N plies below the root and use the nodes'\n"
            '                              eval there.\n'
            '  --order <given|best|worst>  Children order for pruning searches: given, best\n'
            '                              or worst.  [default: given]\n'
            '  -f, --format <text|json>    text (a table) or json.  [default: text]\n'
            '  --lang <en|es>              Language of the table: en or es (JSON stays as\n'
            '                              it is).  [default: en]\n'
            '  --help                      Show this message and exit.\n',
 'convert': 'Usage: gametree convert [OPTIONS] {IN}\n'
            '\n'
            '  Convert a tree file between YAML, JSON, the compact nested list and Gambit\n'
            '  .efg.\n'
            '\n'
            'Arguments:\n'
            "  IN  Tree file (YAML, JSON, compact, .efg, ...) or '-' for standard input.\n"
            '      [required]\n'
            '\n'
            'Options:\n'
            "  -o, --output OUT  File to write ('-' for standard output); its extension\n"
            '                    picks the format.  [required]\n'
            '  --to <str>        Output format: yaml, json, compact, efg (default: from\n'
            "                    OUT's extension).\n"
            '  --force           Replace OUT if it exists (never the input).\n'
            '  --help            Show this message and exit.\n',
 'generate': 'Usage: gametree generate [OPTIONS] COMMAND [ARGS]...\n'
             '\n'
             '  Write the game tree of a classic game (tic-tac-toe, mini-backgammon) as a\n'
             '  tree file.\n'
             '\n'
             'Options:\n'
             '  --help  Show this message and exit.\n'
             '\n'
             'Commands:\n'
             "  tictactoe        Tic-tac-toe's game tree from a position (X is max; a...\n"
             "  backgammon-mini  The course's mini-backgammon (a coin for a die: chance...\n",
 'handout': 'Usage: gametree handout [OPTIONS]\n'
            '\n'
            '  Write an exercise sheet (PDF and LaTeX), its key and answers.yaml into DIR;\n'
            '  with --students, one variant per student.\n'
            '\n'
            'Options:\n'
            '  -o, --output DIR                Folder to write the handout in (new or\n'
            '                                  empty; --force to replace a handout).\n'
            '                                  [required]\n'
            '  -n, --count <int>               Exercises per sheet.  [required]\n'
            '  -s, --seed <int>                Seed: the same seed and options give the\n'
            '                                  same handout. Keep it private: it makes the\n'
            '                                  key.  [required]\n'
            '  -a, --algo <str>                What to ask: minimax, alphabeta or\n'
            '                                  expectiminimax; several comma-separated take\n'
            '                                  turns.  [default: alphabeta]\n'
            '  --variant <soft|hard|practical>\n'
            '                                  The alpha-beta asked: soft (AIMA), hard\n'
            "                                  (fail-hard) or practical (the course notes':\n"
            '                                  each call returns its own alpha/beta); the\n'
            '                                  sheet says which, the key and answers.yaml\n'
            '                                  use it.  [default: soft]\n'
            '  -d, --depth <int>               Plies from the root to every leaf of each\n'
            '                                  tree (chance edges count).  [default: 3]\n'
            '  -b, --branching <str>           Children per inner node: B, or a range\n'
            '                                  LOW..HIGH drawn per node.  [default: 2..3]\n'
            '  --values LO..HI                 Range of leaf values, whole numbers.\n'
            '                                  [default: 0..9]\n'
            '  --lang <en|es>                  Language of the sheets and the key: en or\n'
            '                                  es.  [default: en]\n'
            '  --students ROSTER.csv           UTF-8 CSV with a column of names: a variant\n'
            '                                  and a sheet for each student.\n'
            '  --force                         Write into a folder that holds files:\n'
            "                                  replaces a previous handout's files.\n"
            '  --no-pdf                        Write the LaTeX sources only, without\n'
            '                                  running pdflatex.\n'
            '  --help                          Show this message and exit.\n',
 'random': 'Usage: gametree random [OPTIONS]\n'
           '\n'
           '  Write a random exercise tree (YAML on standard output, or -o FILE).\n'
           '\n'
           'Options:\n'
           '  -d, --depth <int>      Plies from the root to every leaf (chance edges\n'
           '                         count).  [required]\n'
           '  -b, --branching <str>  Children per inner node: B, or a range LOW..HIGH\n'
           '                         drawn per node.  [required]\n'
           '  -s, --seed <int>       Seed: the same seed and options give a byte-identical\n'
           '                         file. Default: a fresh one, written in the title.\n'
           '  --chance               A chance layer after every decision layer (exact\n'
           '                         random probabilities; adds bounds).\n'
           '  -n, --players <int>    1 (max only), 2 (max/min) or more (max-n, payoff\n'
           '                         vectors).  [default: 2]\n'
           '  --values LO..HI        Range of leaf values, whole numbers.  [default: 0..9]\n'
           '  -o, --output FILE      File to write (its extension picks the format);\n'
           '                         default: YAML on standard output.\n'
           "  --to <str>             Output format: yaml, json, efg (default: from FILE's\n"
           '                         extension, else yaml).\n'
           '  --force                Replace FILE if it exists.\n'
           '  --max-nodes <int>      Refuse to generate more nodes than this.  [default:\n'
           '                         5000000]\n'
           '  --help                 Show this message and exit.\n',
 'render': 'Usage: gametree render [OPTIONS] [TREE]\n'
           '\n'
           '  Draw the annotated tree: Graphviz DOT, SVG, PNG or PDF, or a standalone\n'
           '  LaTeX (forest) document.\n'
           '\n'
           'Arguments:\n'
           "  TREE  Tree file (YAML, JSON, .efg, .gtb) or '-' for standard input.\n"
           '\n'
           'Options:\n'
           '  --tree <str>                    The tree inline, e.g.\n'
           "                                  '[[3,12,8],[2,4,6],[14,5,2]]'.\n"
           '  -a, --algo <str>                Algorithm (minimax, alphabeta,\n'
           '                                  expectiminimax, expectimax, star1, star2,\n'
           '                                  maxn, shallow, paranoid). Default: chosen by\n'
           "                                  the tree's node types.\n"
           '  -d, --depth <int>               Stop N plies below the root and use the\n'
           "                                  nodes' eval there.\n"
           '  --variant <soft|hard|practical>\n'
           '                                  Alpha-beta form: soft (returns v, AIMA),\n'
           '                                  hard (fail-hard: returns beta/alpha after a\n'
           '                                  cut) or practical (the course notes: returns\n'
           '                                  its own alpha/beta, cut or not).  [default:\n'
           '                                  soft]\n'
           '  --strict                        Prune only on v > beta / v < alpha.\n'
           '  --order <given|best|worst>      Children order for pruning searches: given,\n'
           '                                  best or worst.  [default: given]\n'
           '  --ties <str>                    max-n tie rule: left (default), right,\n'
           '                                  paranoid or altruistic.\n'
           '  --sum <str>                     Constant sum of leaf vectors for shallow\n'
           "                                  pruning (overrides the file's sum).\n"
           '  --bounds <str str>...           Lowest and highest leaf value for star1 and\n'
           "                                  star2 (overrides the file's bounds).\n"
           '  -f, --format <dot|svg|png|pdf|tex|html>\n'
           '                                  dot (Graphviz text), svg, png or pdf (need\n'
           "                                  Graphviz's dot), tex (LaTeX, forest), html\n"
           '                                  (a page that steps through the search).\n'
           "                                  Default: from -o's extension.\n"
           "  -o, --output FILE               Picture file to write ('-' or none: standard\n"
           '                                  output).\n'
           '  --force                         Replace FILE if it exists (never the input).\n'
           '  --blank                         An exercise handout: the tree and leaf\n'
           '                                  values, no answers.\n'
           '  --show-depth <int>              Draw this many levels of the tree (1 or\n'
           '                                  more).\n'
           '  --show-all                      Draw the whole tree, however big.\n'
           "  --lang <en|es>                  Language of the labels, of the html page's\n"
           '                                  trace and of the --steps pictures: en or es.\n'
           '                                  [default: en]\n'
           '  --steps DIR                     Write one picture per step of the search\n'
           '                                  into DIR (with --format svg or png).\n'
           '  --help                          Show this message and exit.\n',
 'schema': 'Usage: gametree schema [OPTIONS]\n'
           '\n'
           "  Print the JSON Schema of tree files (point your editor's YAML/JSON support\n"
           '  at it).\n'
           '\n'
           'Options:\n'
           '  -o, --output FILE  Write the schema to FILE instead of standard output.\n'
           '  --force            Replace FILE if it exists.\n'
           '  --help             Show this message and exit.\n',
 'solve': 'Usage: gametree solve [OPTIONS] [TREE]\n'
          '\n'
          '  Solve a tree and show the annotated tree, the trace, or the JSON result.\n'
          '\n'
          'Arguments:\n'
          "  TREE  Tree file (YAML, JSON, .efg, .gtb) or '-' for standard input.\n"
          '\n'
          'Options:\n'
          '  --tree <str>                    The tree inline, e.g.\n'
          "                                  '[[3,12,8],[2,4,6],[14,5,2]]'.\n"
          '  -a, --algo <str>                Algorithm (minimax, alphabeta,\n'
          '                                  expectiminimax, expectimax, star1, star2,\n'
          '                                  maxn, shallow, paranoid). Default: chosen by\n'
          "                                  the tree's node types.\n"
          '  -d, --depth <int>               Stop N plies below the root and use the\n'
          "                                  nodes' eval there.\n"
          '  --trace                         Print one line per call, leaf, cut-off and\n'
          '                                  return while searching.\n'
          '  --lang <en|es>                  Language of the whole output: en, or es\n'
          "                                  (Spanish; the trace in the course notes'\n"
          '                                  words).  [default: en]\n'
          "  -f, --format <text|json>        text (annotated tree) or json (contract's\n"
          '                                  result).  [default: text]\n'
          '  --variant <soft|hard|practical>\n'
          '                                  Alpha-beta form: soft (returns v, AIMA),\n'
          '                                  hard (fail-hard: returns beta/alpha after a\n'
          '                                  cut) or practical (the course notes: returns\n'
          '                                  its own alpha/beta, cut or not).  [default:\n'
          '                                  soft]\n'
          '  --strict                        Prune only on v > beta / v < alpha.\n'
          '  --order <given|best|worst>      Children order for pruning searches: given,\n'
          '                                  best or worst.  [default: given]\n'
          '  --show-depth <int>              Draw this many levels of the tree (1 or\n'
          '                                  more).\n'
          '  --show-all                      Draw the whole tree, however big.\n'
          '  --ties <str>                    max-n tie rule: left (default), right,\n'
          '                                  paranoid or altruistic.\n'
          '  --sum <str>                     Constant sum of leaf vectors for shallow\n'
          "                                  pruning (overrides the file's sum).\n"
          '  --bounds <str str>...           Lowest and highest leaf value for star1 and\n'
          "                                  star2 (overrides the file's bounds).\n"
          '  --max-nodes <int>               Refuse trees with more nodes than this\n'
          '                                  (default 10,000,000).\n'
          '  --answers FILE                  Also write the complete answer key (YAML)\n'
          '                                  for `gametree check`.\n'
          '  --force                         Let --answers replace an existing file.\n'
          '  --help                          Show this message and exit.\n'}
