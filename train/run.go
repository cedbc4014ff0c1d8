package train

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/internal/atomicfile"
	"github.com/discspan/discspan/internal/cli"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
)

// Run trains a model as the options say (see the package documentation) and
// returns a summary. When ctx is cancelled, Run finishes the current batch
// (or stops the dev evaluation), writes the checkpoint and returns the
// summary with Interrupted set and a nil error; Run with Resume then
// continues. Errors name what failed: bad options, unreadable data, a
// checkpoint that does not fit, a loss that is not finite, a file that
// could not be written.
func Run(ctx context.Context, opts Options) (*Summary, error) {
	o, err := opts.resolved()
	if err != nil {
		return nil, err
	}
	// One run at a time writes an output and its checkpoint: a second
	// one is refused before it touches them.
	for _, p := range []string{o.Out, o.Checkpoint} {
		unlock, err := atomicfile.Lock(p)
		if err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
		defer unlock()
	}
	// Temporaries of a run that was killed while writing (kill -9).
	for _, p := range []string{o.Out, o.Checkpoint, logPath(o.Out), plotPath(o.Out)} {
		if _, err := atomicfile.RemoveTemps(p); err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
	}
	if o.Device == DeviceCUDA {
		if err := probeCUDA(); err != nil { // before the data are read and scored
			return nil, err
		}
	}
	var t *trainer
	if o.Resume {
		t, err = resumeTrainer(ctx, o, opts)
	} else {
		t, err = newTrainer(ctx, o)
	}
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return nil, fmt.Errorf("train: interrupted before training began (while reading the data or scoring with the teacher): nothing was trained, no checkpoint written or changed: %w", context.Cause(ctx))
		}
		return nil, err
	}
	t.lastCkpt = o.Now()
	t.logStart()
	if err := t.openDevice(); err != nil {
		return nil, err
	}
	defer t.closeDevice()
	if o.MaxTime > 0 {
		t.deadline = o.Now().Add(o.MaxTime)
	}
	return t.run(ctx)
}

// timeUp reports whether Options.MaxTime has run out.
func (t *trainer) timeUp() bool { return !t.deadline.IsZero() && !t.opts.Now().Before(t.deadline) }

// run trains until the last epoch or until ctx is cancelled.
func (t *trainer) run(ctx context.Context) (*Summary, error) {
	lengths := make([]int, len(t.data.train))
	for i, ex := range t.data.train {
		lengths[i] = ex.input.Len()
	}
	for t.st.Epoch < t.opts.Epochs {
		batches := makeBatches(lengths, t.set.MaxBatchWords, t.set.Seed, t.st.Epoch)
		bar := &cli.Progress{}
		if t.opts.ProgressBar {
			bar = cli.NewProgress(len(batches), fmt.Sprintf("epoch %d/%d", t.st.Epoch+1, t.opts.Epochs))
			bar.Set(t.st.Batch)
		}
		for t.st.Batch < len(batches) {
			if interrupted(ctx) || t.timeUp() && t.stepsThisRun > 0 {
				bar.Finish()
				return t.stop(len(batches))
			}
			if err := t.step(batches[t.st.Batch]); err != nil {
				bar.Finish()
				return nil, err
			}
			t.st.Batch++
			t.stepsThisRun++
			saved := false
			if every := t.opts.CheckpointEvery; every > 0 && t.opts.Now().Sub(t.lastCkpt) >= every && t.st.Batch < len(batches) {
				if err := t.saveCheckpoint(); err != nil {
					bar.Finish()
					return nil, err
				}
				saved = true
			}
			p := t.progress(PhaseBatch, len(batches))
			p.Checkpoint = saved
			bar.Describe(fmt.Sprintf("epoch %d/%d loss %.2f %.0f tok/s", p.Epoch, p.Epochs, p.Loss, p.TokPerS))
			bar.Set(t.st.Batch)
			t.report(p)
		}
		bar.Finish()
		if interrupted(ctx) {
			return t.stop(len(batches))
		}
		// The time limit never cuts the dev evaluation: a run resumed
		// would only evaluate again, and be cut again.
		if err := t.endEpoch(ctx, len(batches)); err != nil {
			if interrupted(ctx) {
				return t.stop(len(batches))
			}
			return nil, err
		}
	}
	return t.summary(false), nil
}

// step trains on one batch (example indices): loss, gradient, update.
func (t *trainer) step(idx []int) error {
	start := t.opts.Now()
	batch := make([]network.Example, len(idx))
	u := t.adam.Step + 1
	var words *rand.Rand
	if t.set.WordDropout > 0 {
		if t.counts == nil {
			t.counts = wordCounts(t.data.train, len(t.data.vocab.Words))
		}
		words = rand.New(rand.NewPCG(t.set.Seed, streamWords+uint64(u)))
	}
	var hinge *network.Hinge
	if t.set.Hinge > 0 {
		hinge = &network.Hinge{Weight: t.set.Hinge, Variant: decode.N3}
	}
	for i, j := range idx {
		batch[i] = t.data.train[j].dense()
		batch[i].Targets.Hinge = hinge
		batch[i].Targets.Soft = t.data.train[j].softTargets(t.set.TeacherWeight)
		if words != nil {
			batch[i].Input.WordIDs = dropWords(batch[i].Input.WordIDs, t.counts, t.set.WordDropout, network.EOSWord+1, words)
		}
	}
	if t.gpu != nil {
		decay := 0.0
		if t.ema != nil {
			decay = min(t.set.EMA, float64(1+u)/float64(10+u))
		}
		loss, err := t.gpu.Step(batch, dropoutSeed(t.set.Seed, u), t.adam.Config, u, decay)
		if err != nil {
			return fmt.Errorf("train: update %d: %w", u, err)
		}
		if math.IsNaN(loss.Total) || math.IsInf(loss.Total, 0) {
			return fmt.Errorf("train: update %d (epoch %d): loss is %v; the last checkpoint is kept", u, t.st.Epoch+1, loss.Total)
		}
		t.adam.Step = u
		t.account(loss, start, u)
		return nil
	}
	loss, err := t.model.LossGrad(batch, dropoutSeed(t.set.Seed, u), t.grads)
	if err != nil {
		return fmt.Errorf("train: update %d: %w", u, err)
	}
	if math.IsNaN(loss.Total) || math.IsInf(loss.Total, 0) {
		return fmt.Errorf("train: update %d (epoch %d): loss is %v; the last checkpoint is kept", u, t.st.Epoch+1, loss.Total)
	}
	if _, err := t.adam.Update(t.model.Params, t.grads); err != nil {
		return fmt.Errorf("train: update %d: %w", u, err)
	}
	if t.ema != nil {
		updateAverage(t.ema, t.model.Params, min(t.set.EMA, float64(1+u)/float64(10+u)))
	}
	t.account(loss, start, u)
	return nil
}

// account adds a batch's loss and time to the epoch's statistics.
func (t *trainer) account(loss network.Loss, start time.Time, u int) {
	t.st.LossSum += loss.Total * float64(loss.Sentences)
	t.st.Sents += loss.Sentences
	t.st.Words += loss.Words
	t.st.Seconds += t.opts.Now().Sub(start).Seconds()
	t.st.LastLR = t.set.Adam.LearningRate(u)
}

// endEpoch evaluates on the dev set, keeps the best parameters, writes the
// output, log, plot and checkpoint, and moves to the next epoch.
func (t *trainer) endEpoch(ctx context.Context, steps int) error {
	start := t.opts.Now()
	epoch := t.st.Epoch + 1
	e := EpochLog{
		Epoch: epoch, Updates: t.adam.Step, TrainLoss: t.meanLoss(), TrainWords: t.st.Words,
		Seconds: t.st.Seconds, TokensPerS: t.tokensPerS(), LR: t.st.LastLR,
	}
	if err := t.syncDevice(); err != nil {
		return err
	}
	selected := t.model // the parameters evaluated, selected and written
	if t.ema != nil {
		selected = &network.Model{Params: t.ema, Workers: t.model.Workers}
	}
	if err := t.checkFinite(); err != nil {
		return err
	}
	if t.data.devGold != nil {
		res, err := evaluateWords(ctx, selected, t.data.vocab, t.data.devWords, t.data.devGold, DevVariant, t.set.Workers)
		if errors.Is(err, decode.ErrNotFinite) {
			return fmt.Errorf("train: the training diverged in epoch %d: the model's dev scores are not finite (%w; lower the learning rate, --adam); the last checkpoint and the best model so far are kept", epoch, err)
		}
		if err != nil {
			return err
		}
		e.DevF1, e.DevDiscF1, e.DevExact, e.DevPOS = res.All.F1, res.All.DiscF1, res.All.Exact, res.All.POSAccuracy
	}
	if t.best == nil || t.data.devGold == nil || e.DevF1 > t.st.BestF1 {
		t.best = selected.Params.Clone()
		t.st.BestF1, t.st.BestDisc, t.st.Best = e.DevF1, e.DevDiscF1, epoch
		if err := t.writeOutput(t.best, epoch, e.DevF1, e.DevDiscF1); err != nil {
			// The epoch's training is kept all the same: the checkpoint
			// of the epoch before is written at its end, so that a run
			// resumed once the output can be written loses nothing.
			err = fmt.Errorf("train: output: %w", err)
			return errors.Join(err, t.saveCheckpoint())
		}
	}
	e.EvalSeconds = t.opts.Now().Sub(start).Seconds()
	e.BestDevF1, e.BestEpoch = t.st.BestF1, t.st.Best
	e.Time = t.opts.Now().UTC().Format(time.RFC3339)
	t.st.History = append(t.st.History, e)
	if t.freshLog {
		if err := rewriteLog(t.logPath(), t.st.History); err != nil {
			return fmt.Errorf("train: %w", err)
		}
		t.freshLog = false
	} else if err := appendLog(t.logPath(), e); err != nil {
		return err
	}
	if err := atomicfile.WriteBytes(t.plotPath(), PlotSVG(t.st.History)); err != nil {
		return fmt.Errorf("train: plot: %w", err)
	}
	last := t.progress(PhaseEpoch, steps)
	t.st.Epoch, t.st.Batch = epoch, 0
	t.st.LossSum, t.st.Sents, t.st.Words, t.st.Seconds = 0, 0, 0, 0
	if err := t.saveCheckpoint(); err != nil {
		return err
	}
	last.DevF1, last.DevDiscF1, last.Checkpoint = e.DevF1, e.DevDiscF1, true
	t.report(last)
	t.logf("epoch %d/%d: loss %.3f, dev F1 %.2f (disc %.2f), %.0f tokens/s, %.0f s + eval %.0f s, lr %.3g, best %.2f (epoch %d)",
		epoch, t.opts.Epochs, e.TrainLoss, e.DevF1, e.DevDiscF1, e.TokensPerS, e.Seconds, e.EvalSeconds, e.LR, e.BestDevF1, e.BestEpoch)
	return nil
}

// stop writes the checkpoint of an interrupted run.
func (t *trainer) stop(steps int) (*Summary, error) {
	if err := t.saveCheckpoint(); err != nil {
		return nil, err
	}
	t.logf("interrupted in epoch %d at batch %d/%d; checkpoint %s (continue with resume)", t.st.Epoch+1, t.st.Batch, steps, t.opts.Checkpoint)
	sum := t.summary(true)
	sum.TimeLimit = t.timeUp()
	return sum, nil
}

func (t *trainer) meanLoss() float64 {
	if t.st.Sents == 0 {
		return 0
	}
	return t.st.LossSum / float64(t.st.Sents)
}

func (t *trainer) tokensPerS() float64 {
	if t.st.Seconds == 0 {
		return 0
	}
	return float64(t.st.Words) / t.st.Seconds
}

// progress returns the report of the current position.
func (t *trainer) progress(ph Phase, steps int) Progress {
	return Progress{
		Phase: ph, Epoch: t.st.Epoch + 1, Epochs: t.opts.Epochs, Step: t.st.Batch, Steps: steps,
		Update: t.adam.Step, Loss: t.meanLoss(), LR: t.st.LastLR, TokPerS: t.tokensPerS(),
		BestDevF1: t.st.BestF1, BestEpoch: t.st.Best,
	}
}

func (t *trainer) report(p Progress) {
	if t.opts.Progress != nil {
		t.opts.Progress(p)
	}
}

func (t *trainer) summary(interrupted bool) *Summary {
	return &Summary{
		Epochs: t.st.Epoch, Updates: t.adam.Step, BestEpoch: t.st.Best, BestDevF1: t.st.BestF1,
		BestDevDisc: t.st.BestDisc, Interrupted: interrupted, Stats: t.data.stats,
		History: append([]EpochLog(nil), t.st.History...), Out: t.opts.Out, Checkpoint: t.opts.Checkpoint,
	}
}

// logf writes one line to the human-readable log.
func (t *trainer) logf(format string, args ...any) {
	if t.opts.Log != nil {
		fmt.Fprintf(t.opts.Log, format+"\n", args...)
	}
}

// describeNetwork names the preset of a run's network and, where its
// configuration (a --config file) changes the preset's sizes or dropout
// rates, the sizes or rates it trains with.
func describeNetwork(preset string, c network.Config) string {
	out := "preset " + preset
	p, err := network.Preset(preset)
	if err != nil {
		return out
	}
	var changed []string
	if sizes := [8]int{c.WordDim, c.CharDim, c.CharHidden, c.MaxChars, c.LSTM1Hidden, c.LSTM2Hidden, c.LabelMLP, c.SpanMLP}; sizes != [8]int{p.WordDim, p.CharDim, p.CharHidden, p.MaxChars, p.LSTM1Hidden, p.LSTM2Hidden, p.LabelMLP, p.SpanMLP} {
		changed = append(changed, fmt.Sprintf("sizes word %d, char %d/%d (first %d characters), LSTMs %d/%d, label MLP %d, span MLP %d",
			c.WordDim, c.CharDim, c.CharHidden, c.MaxChars, c.LSTM1Hidden, c.LSTM2Hidden, c.LabelMLP, c.SpanMLP))
	}
	if [4]float64{c.DropChar, c.DropFeat, c.DropLSTM, c.DropMLP} != [4]float64{p.DropChar, p.DropFeat, p.DropLSTM, p.DropMLP} {
		changed = append(changed, fmt.Sprintf("dropout char %g, features %g, LSTM %g, MLP %g", c.DropChar, c.DropFeat, c.DropLSTM, c.DropMLP))
	}
	if c.LeakySlope != p.LeakySlope {
		changed = append(changed, fmt.Sprintf("LeakyReLU slope %g", c.LeakySlope))
	}
	if len(changed) > 0 {
		out += " with " + strings.Join(changed, "; ")
	}
	return out
}

// logStart describes the run.
func (t *trainer) logStart() {
	s := t.data.stats
	t.logf("train: %s: %d sentences, %d words", t.set.Train, s.TrainSents, s.Train.Words)
	if s.Excluded > 0 {
		t.logf("dropped %d training sentences that repeat a sentence of an excluded file", s.Excluded)
	}
	if s.Repeated > 0 {
		t.logf("repeated files (FILE*K) add %d copies of their sentences an epoch: %d examples", s.Repeated, len(t.data.train))
	}
	if t.set.Dev != "" {
		t.logf("dev: %s: %d sentences, %d words", t.set.Dev, s.DevSents, s.DevWords)
		if p, err := parser.New(t.model, t.data.vocab); err == nil {
			if n := len(Unparsable(p, t.data.devWords, DevVariant)); n > 0 {
				t.logf("dev: %d sentences are longer than the parser takes (%d words, or a 1 GiB memory budget with this network): they are scored as unparsed, their constituents missed", n, tree.DefaultMaxWords)
			}
		}
	}
	if t.set.Folds > 0 {
		t.logf("fold %d of %d held out; the counts below are of the whole file", t.set.HoldOut, t.set.Folds)
	}
	t.logf("%s", s.Train.SkippedLine())
	if s.Train.Conflicts > 0 {
		t.logf("dropped %d targets that share a score cell with another", s.Train.Conflicts)
	}
	t.logf("vocabulary: %d words, %d characters, %d labels, %d tags", s.Words, s.Chars, s.Labels, s.Tags)
	if len(s.AddedLabels) > 0 {
		t.logf("labels the initial model lacks, learnt from a score %d below the span score: %s", initLabelScore, strings.Join(s.AddedLabels, ", "))
	}
	t.logf("network: %s, %d parameters; batches of at most %d words; seed %d; %d workers",
		describeNetwork(t.set.Preset, t.set.Config), t.set.Config.NumParams(), t.set.MaxBatchWords, t.set.Seed, t.set.Workers)
	if t.set.WordDropout > 0 {
		t.logf("word dropout: alpha %g (a word seen c times is read as unknown with probability alpha/(alpha+c))", t.set.WordDropout)
	}
	if t.set.Teacher != "" {
		ts := t.data.teacher
		dev := ""
		if ts.DevF1 >= 0 {
			dev = fmt.Sprintf(", dev F1 %.2f", ts.DevF1)
		}
		t.logf("teacher: %s (%d model(s)%s), weight %g, temperature %g: %d soft cells (%.1f per word)",
			t.set.Teacher, ts.Models, dev, t.set.TeacherWeight, t.set.teacherTemperature(), ts.Cells, float64(ts.Cells)/float64(max(1, s.Train.Words)))
		t.logf("teacher scored the training sentences on %s", ts.Scoring)
	}
	if t.st.Epoch > 0 || t.st.Batch > 0 {
		t.logf("resuming from %s: epoch %d, %d batches done, %d updates", t.opts.Checkpoint, t.st.Epoch+1, t.st.Batch, t.adam.Step)
	}
}

// updateAverage moves the average avg towards p: avg = d*avg + (1-d)*p.
func updateAverage(avg, p *network.Params, d float64) {
	a, b := avg.Tensors(), p.Tensors()
	df, ef := float32(d), float32(1-d)
	for i := range a {
		x, y := a[i].Data, b[i].Data[:len(a[i].Data)]
		for j := range x {
			x[j] = df*x[j] + ef*y[j]
		}
	}
	avg.Changed()
}
