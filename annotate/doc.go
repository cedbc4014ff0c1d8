// Package annotate is the model behind an annotation tool for discontinuous
// constituency trees: a Corpus of Sentences that an annotator edits, with
// undo and redo, live validation, comparison of two analyses, search, and
// loading and saving. It is pure Go with no user interface; the browser's
// annotation mode drives it.
//
// # Sentences
//
// A Sentence holds a tree (chart/tree.Tree), a Status (untouched,
// pre-annotated, checked), a free-text note, the constituents the annotator
// created or confirmed (Fixed: a label over a Yield of at most two blocks)
// and the yields of the constituents the annotator deleted (forbidden). The
// fixed and forbidden sets are the constraints of an exact re-parse: a
// Reparser rebuilds the rest of the tree around them.
//
// The state of a sentence is changed only by Commands applied with
// Sentence.Do (or Corpus.Do): CreateConstituent, Relabel, DeleteNode,
// Reattach, SetTag, SetEdge, SetNote, SetStatus, FixNode and UnfixNode.
// Each successful command is one undo step with a human-readable
// description. Commands that change the bracketing (Structural) are
// followed by a call of the Reparser, when one is given; its result is part
// of the same step, so Undo restores the tree exactly as it was before the
// command, and Redo restores the state after it without calling the
// Reparser again. States are never modified once made: every step keeps
// the state before and after it, and Sentence.Tree returns the current one,
// which callers must not modify. A Sentence or Corpus is not safe for
// concurrent use; the user interface drives it from one goroutine.
//
// Which constituents a command fixes or forbids:
//   - CreateConstituent fixes the new constituent (a selection of one block,
//     or two around one gap) and removes its yield from the forbidden set.
//     When the selection crosses existing nodes it can only be built by a
//     re-parse; without a Reparser that is an error.
//   - Relabel fixes the node with its new label (if it has at most two
//     blocks); FixNode and UnfixNode fix and unfix a node explicitly.
//   - DeleteNode forbids the yield of the deleted node (unless another node
//     has the same yield) and unfixes it; its children go to its parent.
//   - Reattach fixes the new parent and a moved node (those of at most two
//     blocks), so that a re-parse keeps the attachment.
//
// Fixed constituents follow their nodes through local edits: when a
// Reattach changes the words under a fixed node, the fixed constituent
// changes with it, and an edit that would give a fixed constituent more
// than two blocks is refused. A forbidden yield that becomes the yield of a
// node through an explicit edit is dropped from the forbidden set (the
// later decision wins). A re-parse result must contain every fixed
// constituent and no forbidden yield, or the command fails and nothing
// changes. Token annotation (lemma, tag, morphology, comments) is kept
// across a re-parse, and so are the numbers, edge labels and secondary
// edges of the nodes that the re-parse gives back with the same label and
// yield.
//
// # Validation, comparison and search
//
// Validate lists the problems of a sentence for the user interface to mark:
// bad parent links, cycles, empty nodes, block degrees above the variant's
// limit, unknown labels, unattached words, and fixed or forbidden
// constituents that the tree does not respect. Diff compares two analyses
// of a sentence by labelled constituents, with the bracket multiset
// semantics of evalb and chart/eval. Corpus.FindWords, Corpus.FindLabel and
// Corpus.Inconsistencies search a corpus; the last finds word sequences
// that are a constituent somewhere and are analysed differently elsewhere.
//
// # Files
//
// ImportFile and Import read a treebank in any format of chart/treebank
// (export, discbracket, TIGER-XML, PTB) into a Corpus; Corpus.ExportFile
// and Corpus.Export write one. Corpus.Save and Load keep a whole annotation
// project as versioned JSON: trees with every field, status, notes, fixed
// and forbidden sets (the undo history is not saved).
package annotate
