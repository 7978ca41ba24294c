"""JavaScript for coonbench, from outside: a ``Language`` plug-in (``language``) and two code formats
(``formats``: ``javascript`` and ``javascript-minified``), found through the ``coonbench.languages`` and
``coonbench.formats`` entry points. Modules: ``syntax`` (tree-sitter-javascript: parsing, the lossless check, the
minifier), ``questions`` (metrics and AST-derived questions), ``corpus/`` (real npm files, their licences).
Importing this package registers nothing; the entry-point modules do.
"""
