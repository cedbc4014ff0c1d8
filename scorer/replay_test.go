package scorer

import (
	"reflect"
	"strings"
	"testing"

	"github.com/discspan/discspan/network"
)

// TestRecordAndReplay records a model's results over two batches and
// replays them: the same results in order, again after Rewind; with Copy,
// results equal to the recording that a caller may write into (a Mean of
// replays, which sums into its first member's, leaves the recordings as
// they were and equals the Mean of the models); and the errors of a batch
// past the recording or of other lengths.
func TestRecordAndReplay(t *testing.T) {
	a, b := seeded(t, 1), seeded(t, 2)
	first, second := []network.Input{sentence(3), sentence(6)}, []network.Input{sentence(1), sentence(4)}
	record := func(m *network.Model) []Result {
		r := &Recorder{Scorer: NewCPU(m)}
		for _, batch := range [][]network.Input{first, second} {
			if _, err := r.Score(batch); err != nil {
				t.Fatal(err)
			}
		}
		if got := len(r.Recorded()); got != 4 {
			t.Fatalf("%d results recorded, want 4", got)
		}
		return r.Recorded()
	}
	recA, recB := record(a), record(b)
	all := append(append([]network.Input{}, first...), second...)
	wantA, err := NewCPU(a).Score(all)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(recA, wantA) {
		t.Fatal("the recording differs from scoring the sentences at once")
	}
	for _, copied := range []bool{false, true} {
		r := &Replay{Results: recA, Copy: copied}
		for round := range 2 {
			var got []Result
			for _, batch := range [][]network.Input{first[:1], append(first[1:], second...)} {
				o, err := r.Score(batch)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, o...)
			}
			if !reflect.DeepEqual(got, recA) {
				t.Errorf("copy %v, round %d: the replay differs from the recording", copied, round)
			}
			if same := &got[0].Scores.Cont[0] == &recA[0].Scores.Cont[0]; same == copied {
				t.Errorf("copy %v: the replay returns the recorded slices %v", copied, same)
			}
			if _, err := r.Score(first); err == nil || !strings.Contains(err.Error(), "2 sentences asked, 0 left") {
				t.Errorf("copy %v: past the recording: %v", copied, err)
			}
			r.Rewind()
		}
		if _, err := r.Score([]network.Input{sentence(5)}); err == nil || !strings.Contains(err.Error(), "sentence 0 has 5 words, its recorded scores 3") {
			t.Errorf("copy %v: a sentence of another length: %v", copied, err)
		}
	}
	keep := recA[0].Scores.Cont[0]
	got, err := Mean(&Replay{Results: recA, Copy: true}, &Replay{Results: recB, Copy: true}).Score(all)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Mean(NewCPU(a), NewCPU(b)).Score(all)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) || recA[0].Scores.Cont[0] != keep {
		t.Errorf("the mean of two replays differs from the models' mean, or changed the recording")
	}
}
