// Package eval scores candidate parse trees against gold trees the way
// disco-dop's evaluator (`discodop eval gold parses proper.prm`) does:
// labelled bracket precision, recall and F1, the same restricted to
// discontinuous brackets, exact match and POS accuracy, for all sentences
// and for sentences of at most CUTOFF_LEN words.
//
// The semantics were taken from disco-dop's discodop/eval.py (TreePairResult,
// transform, bracketings, EvalAccumulator, Evaluator.summary, readparam),
// discodop/treebank.py (the export and bracket readers, handlefunctions,
// handlemorphology) and proper.prm; the Go code is an independent
// implementation.
//
// # Parameters
//
// Params mirrors an EVALB/disco-dop parameter file; ProperPrm returns
// proper.prm and ParseParams reads any other file. There is no global state.
//
// # Per sentence
//
// Gold and candidate are paired by position. For each pair:
//
//  1. Tags and labels are normalized as disco-dop's readers leave them: in
//     POS tags '(' and ')' become '[' and ']' (the export reader does this;
//     hence LET[] in proper.prm); labels and tags lose their function tag
//     (eval's default --functions=remove): cut at the first '-' if it is not
//     at position 0, then at the first '=' if that is not at position 0, so
//     NP-SBJ=2 is NP while -NONE- and -LRB- stay whole.
//  2. A token is deleted when the tag of the GOLD token at its position is in
//     DELETE_LABEL, or when the word is in DELETE_WORD (whatever the tag),
//     or, with DELETE_ROOT_PRETERMS, when the gold token hangs directly under
//     the root. Deletion is decided by the gold tags for the candidate too
//     (disco-dop passes the gold POS tags to transform for both trees), so a
//     candidate that mistags a comma still loses it, and a candidate
//     punctuation tag on a gold non-punctuation token deletes nothing. The
//     DELETE_WORD test also looks at the gold word; disco-dop looks at each
//     tree's own word, which is the same thing whenever the words are
//     identical, the only case in which disco-dop produces scores. The
//     remaining words are renumbered 0..n-1.
//  3. EQ_LABEL maps labels to a class representative before the DELETE_LABEL
//     test; a phrasal node with a deleted label is replaced by its children
//     (so it contributes no bracket, its descendants still do). A node whose
//     yield is empty after deletion is removed.
//  4. Brackets: one (label, set of renumbered positions) per remaining
//     phrasal node; a multiset, so every node of a unary chain counts. The
//     virtual root (ROOT/VROOT of the files) and preterminals never count.
//     Nodes attached directly to the root do.
//  5. The remaining words must be the same, or evaluation fails with an
//     error naming the sentence number and id. Words are the same when they
//     are equal after EQ_WORD mapping (disco-dop's test) or, an extension,
//     when they are equal once the bracket escapes -LRB-, -RRB-, #LRB#, #RRB#
//     are decoded: the shared .discbracket files write "topturners(sters)"
//     as "topturners-LRB-sters-RRB-", which disco-dop's discbracket reader
//     (it decodes #LRB# only) would not match against the export file, and
//     disco-dop aborts on such pairs. Scores are unchanged wherever disco-dop
//     produces scores. Candidate and gold normally have the same tokens; a
//     shorter candidate (e.g. without punctuation) is aligned to the gold
//     words greedily as disco-dop's alignsent does.
//  6. A bracket is discontinuous when its position set has more than one
//     block AFTER deletion and renumbering: a constituent interrupted only by
//     punctuation is continuous.
//  7. Exact match compares the transformed bracket multisets (not the tags).
//     A sentence that is all punctuation has no brackets and is an exact
//     match.
//  8. POS accuracy compares the (normalized, non-EQ_LABEL-mapped) tags of the
//     tokens that remain after deletion, position by position.
//
// # Sentence length and the cutoff
//
// The length used for CUTOFF_LEN is the number of gold tokens whose tag is not
// in DELETE_LABEL_FOR_LENGTH, counted BEFORE punctuation deletion
// (TreePairResult.lengpos in eval.py). proper.prm leaves
// DELETE_LABEL_FOR_LENGTH commented out, so with proper.prm the length is the
// full token count including punctuation, as in EVALB. (On the Alpino dev set
// 682 of 714 sentences have at most 40 tokens; counting without punctuation
// would give 696.) The "longest sentence" line uses the same length.
//
// # Corpus level
//
// Precision = matched / candidate brackets, recall = matched / gold brackets,
// summed over the corpus (not averaged over sentences); F1 = 2PR/(P+R) =
// 2·matched/(gold+cand); matching is multiset intersection per sentence.
// Exact match is the fraction of sentences, POS accuracy the fraction of
// remaining tokens. The discontinuous scores use the same sums restricted to
// discontinuous brackets (equal to what disco-dop reports with --disconly for
// precision, recall and F1). With Params.DiscOnly the main scores, sentence
// count and exact match follow --disconly: only sentences with a
// discontinuous gold or candidate bracket count.
//
// Scores are percentages, unrounded in Summary and SentenceResult; a score
// with a zero denominator (disco-dop prints "nan" or "0DIV!") is 0 there,
// the counts tell the cases apart, and FormatSummary prints what disco-dop
// prints. FormatSummary reproduces disco-dop's summary table: one column
// when no sentence exceeds the cutoff, else "<= 40" and "ALL" columns, with
// the disc. bracket lines when there are discontinuous brackets.
// FormatSentences reproduces the per-sentence table of eval --verbose.
//
// Input trees are plain trees: labels carrying merged unary chains or
// binarization markers must be undone by the caller.
package eval
