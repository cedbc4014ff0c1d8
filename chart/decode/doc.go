// Package decode holds the exact chart decoders of block degree two
// (Corro 2020): given the decomposed span scores of a sentence (Scores), each
// variant returns the highest-scoring tree of its family together with its
// derivation.
//
// Items use interstice indices: a continuous item [i,j] covers words
// i..j-1, a discontinuous item [i,k,l,j] covers [i,k) and [l,j) with the gap
// [k,l). Every item carries its best label, or the null label when no label
// scores above zero; null items are intermediate nodes of the implicit
// binarisation and are spliced out of the returned tree.
//
// Variants, their rules and costs (n words, L labels):
//
//	continuous  combine                                   O(n^3 + n^2 L) time, O(n^2) memory
//	n3          combine, create partial, complete         O(n^3 L) time, O(n^2 L) memory
//	n4          combine, create gap, fill gap             O(n^4) time (+ pruned O(n^4 L)), O(n^2) memory
//	n5wn        n4 + kept right/left, shrink left/right   O(n^5 + n^4 L) time, O(n^4) memory
//	n5          n5wn + ill-nested, no gap                 O(n^5 + n^4 L) time, O(n^4) memory
//	n6wn        n5wn + wrapped                            O(n^6 + n^4 L) time, O(n^4) memory
//	n6          all twelve rules                          O(n^6 + n^4 L) time, O(n^4) memory
//
// Charts hold float32 scores only; back-pointers are not stored but
// recomputed during tree recovery by searching, in a fixed rule order, for
// antecedents whose sum reproduces an item's score bit for bit. Ties are
// therefore broken deterministically: the first rule, and within a rule the
// smallest split indices, in the recovery order documented on each variant;
// among labels the lowest index wins.
//
// DecodeConstrained restricts the search to the trees that contain given
// labelled constituents (Required) and no labelled constituent over given
// yields (Forbidden), exactly: constraints only change item weights (a
// forbidden yield is null, a required one carries its label, an item
// crossing a required yield weighs -Inf), and since a derivation's items
// are the nodes of a binarised tree, pairwise disjoint or nested, every
// derivation of finite score holds every required yield. The cost is that
// of the variant plus O(n^2 c) for c constraints, and O(s^2) per block of
// extent s meeting a required yield in the O(n^5)/O(n^6) charts; n3 decodes
// through the n4 chart under constraints (same search space), since its
// forgetful items do not know the yield of a discontinuous constituent.
// ReadConstraintFile reads constraints from JSON with label names.
package decode
