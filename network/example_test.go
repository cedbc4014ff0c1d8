package network_test

import (
	"fmt"

	"github.com/discspan/discspan/network"
)

// A vocabulary, a model, one training update and the scores of a sentence.
func Example() {
	train := [][]string{{"Jan", "ziet", "Marie"}, {"Marie", "ziet", "Jan", "niet"}}
	v := network.NewVocab(train, 2)
	v.AddLabel("NP")
	v.AddLabel("SMAIN")
	for _, t := range []string{"n", "ww", "bw"} {
		v.AddTag(t)
	}
	cfg := network.Tiny().WithVocab(v)
	m, err := network.New(cfg, 1)
	if err != nil {
		panic(err)
	}

	// Gold: SMAIN over words 0..2 (class 1+1), NP on words 0 and 2 (class 0+1).
	ex := network.Example{Input: v.Encode(train[0]), Targets: network.NewTargets(3)}
	ex.Targets.Cont[0*3+2] = 2
	ex.Targets.Cont[0*3+0] = 1
	ex.Targets.Cont[2*3+2] = 1
	ex.Targets.Tags = []int{0, 1, 0}

	grads := m.Params.ZeroClone()
	opt := network.NewAdam(network.DefaultAdam(), m.Params)
	loss, err := m.LossGrad([]network.Example{ex}, 1, grads)
	if err != nil {
		panic(err)
	}
	if _, err := opt.Update(m.Params, grads); err != nil {
		panic(err)
	}
	fmt.Printf("labels %d, first loss %.3f (6 pairs x 3 kinds x log 3 + tags)\n", cfg.Labels, loss.Total-loss.Tag)

	s := m.Scores(v.Encode([]string{"Marie", "ziet", "Jan"}))
	fmt.Println(s.N, s.L, len(s.Cont))
	// Output:
	// labels 2, first loss 19.775 (6 pairs x 3 kinds x log 3 + tags)
	// 3 2 18
}
