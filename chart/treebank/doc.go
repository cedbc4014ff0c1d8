// Package treebank reads and writes treebank files as []*tree.Tree: NEGRA
// export (versions 3 and 4), disco-dop's discbracket, TIGER-XML, and (read
// only) Penn Treebank style bracketed trees.
//
// # Files
//
// ReadFile and OpenFile pick the format from the file extension (see
// FormatOf); writing a file whole or not at all is internal/bankfile's
// (chart depends on nothing else of the project). ReadExport,
// ReadDiscbracket, ReadPTB and ReadAll read from an io.Reader; WriteExport,
// WriteDiscbracket and Write write to an io.Writer. Reader and Writer read
// and write one tree at a time.
//
// Reading then writing a file in the same format gives back the same bytes
// when the file is written the way this package writes it, as the Alpino
// files in shared/data are (export: single TABs between fields, the "%%"
// column comment as the only comment line, no #FORMAT line, no white space
// at the ends of lines; discbracket: children sorted by their leftmost
// word, "(ROOT" outside). Other files give back the same trees.
//
// Lines end in "\n", "\r\n" or a lone "\r" (old Mac files), mixed as they
// come; a byte order mark at the start is skipped.
//
// # Errors
//
// Parse errors are *Error values that print as "name:line: message" or
// "name:line:column: message". The Read functions skip a malformed sentence
// and go on with the next one, collecting the errors in an ErrorList (at
// most 10, then "too many errors" and reading stops); the trees that were
// read without error are returned along with it. No input makes a reader
// panic or loop; sentences are checked for bad and dangling parent
// numbers, duplicate node numbers, cycles, bracket balance, word indices
// and text (a sentence with a byte that is not UTF-8, or a NUL byte, which
// the writers refuse too, is refused, naming its line and column; a byte
// order mark at the start of the input is skipped). Limits far above real treebanks bound the memory one sentence
// can cost whatever the input (see MaxLineBytes, MaxTokens, MaxBrackets,
// MaxDepth): a sentence past one is refused like a malformed one. An
// error that refuses a sentence has Error.Tree set; one about text between
// sentences (a stray line or bracket, a header) does not, so that a caller
// keeping one output per input sentence knows which errors take a place.
//
// The writers return an error, naming the tree, for a tree they
// cannot write so that it reads back the same (white space inside a field,
// parent links that are out of range or form a cycle, a tree past a
// readers' limit such as MaxTokens, MaxBrackets or MaxDepth, counted as
// the tree is written, or a line or TIGER-XML tag of more than
// MaxLineBytes, and so on).
//
// # Export
//
// Lines are "#BOS id [extra]", token lines "word [lemma] tag morph edge
// parent [secedge-label secedge-parent]...", node lines "#NNN [lemma] label
// morph edge parent [secedge...]" with node numbers 500..999, then
// "#EOS id". Fields are separated by TABs or spaces. Version 4 has the lemma
// column; the version is taken from a "#FORMAT 3|4" line, else from the
// number of fields of the first token or node line (6 plus 2 per
// secondary edge for version 4, 5 plus 2 for version 3). "%%" starts a
// comment: a whole comment line is skipped, and a comment after the fields
// of a token or node line is kept in Token.Comment or Node.Comment. Header
// tables "#BOT name" ... "#EOT name" are skipped.
//
// Tree.ID is the #BOS id and Tree.BOSExtra the rest of the #BOS line. Node
// numbers are kept in Node.Num, and nodes stay in file order; parent 0 is
// tree.Root. In the lemma, tag, morph, edge, label and secondary edge label
// columns "--" is read as the empty string, and empty strings are written
// as "--". Words are kept as they are, so that a word "--" (a dash) is not
// lost; an empty word, which only other formats can give, is written as
// "--". Tags are kept as written: disco-dop writes "(" and ")" in tags as
// "[" and "]", and these are not converted. A line whose first field is
// "#" followed by digits is a node line, so such words cannot be read; the
// export writer refuses to write them, and words "#BOS" and "#EOS".
//
// The writer writes a "%%" column comment, then each sentence with single
// TABs between fields. Node numbers are kept when they are distinct and in
// 500..999 and the nodes are written in the order of Tree.Nodes; otherwise
// (trees from other formats, or built by a program) the nodes are numbered
// from 500 in post-order, children before parents and siblings in the order
// of their leftmost word: the order of disco-dop and of the Alpino files.
// An empty Tree.ID is written as the number of the tree in the file, from
// 1. Version 3 leaves out the lemma column (lemmas are lost).
//
// # Discbracket
//
// One tree per line, for example
//
//	(ROOT (S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John) (? 3=?)))
//
// Leaves are "index=word" under a preterminal whose label is the tag;
// indices are 0-based and must be 0..n-1, each used once; children can come
// in any order. The outermost bracket is the virtual root when it is
// labelled ROOT, VROOT or TOP or has no label, else it is a node attached to
// the virtual root. Labels are kept whole (a function tag after "-" is not
// split off). "#LRB#" and "#RRB#" in words, tags and labels are read as "("
// and ")", and written back that way (or as "-LRB-" and "-RRB-", see
// Writer.PTBParens); "-LRB-" and "-RRB-" are kept as they are. A label or tag "--" reads as the empty string. A TAB ends the tree
// and starts a comment, which is kept in Tree.BOSExtra. Blank lines are
// skipped. Tree.ID is set to the number of the tree in the file, from 1,
// counting trees that could not be read, so that trees can be paired by
// position. Nodes are numbered from 500 in the export order described above.
//
// The writer writes "(ROOT ...)" with the children of every node sorted by
// their leftmost word, preterminals as "(tag index=word)" (an empty tag as
// "--"), and a TAB and Tree.BOSExtra when that is not empty. Lemmas,
// morphology, edge labels, secondary edges, comments and node numbers are
// not written. A node that dominates no word cannot be written.
//
// # Penn Treebank brackets
//
// Trees such as "(S (NP (DT the) (NN dog)) (VP (VBZ barks)))", also wrapped
// in an unlabelled "( ... )" and spread over several lines; several trees may
// share a line. Words are numbered in order. The outermost bracket is
// treated as for discbracket, and so are "#LRB#", "#RRB#" and "--".
// Empty elements (-NONE- traces, *pro* and the like) are kept as ordinary
// tokens; remove them with a tree transformation if they are not wanted. In
// the Penn-Helsinki style "( (IP-MAT ...) (ID x))", an ID preterminal
// directly under an unlabelled or ROOT/VROOT/TOP outer bracket gives
// Tree.ID instead of a token; otherwise Tree.ID is the number of the tree
// from 1. There is no PTB writer; write discbracket instead.
//
// # TIGER-XML
//
// ReadTigerXML streams <s> elements (UTF-8 or ISO-8859-1): <s id> is
// Tree.ID, <t word lemma pos morph> are the tokens, <nt cat> the nodes,
// <edge label idref> sets the child's parent and edge label, and a
// <secedge label idref> inside a <t> or <nt> is a secondary edge of that
// element to the nonterminal idref. The graph's root is the virtual root
// when its cat is VROOT, ROOT, TOP or empty, and a real node otherwise.
// "--" reads as empty; node numbers come from the nt ids ("s1_500" is 500).
// A file with text outside any element, a root other than <corpus> (or
// <subcorpus>, or a lone <s>), or no element at all is not TIGER-XML and
// is refused; reading stops there, as at an XML syntax error
// (Error.Stopped).
// WriteTigerXML writes a header declaring the features and every value used
// and one VROOT per graph; reading it back gives the same trees, and export
// to TIGER-XML to export gives back the same bytes.
package treebank
