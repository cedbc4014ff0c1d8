package train

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/discspan/discspan/internal/atomicfile"
)

// EpochLog is one line of the OUT.log.jsonl file: one epoch.
type EpochLog struct {
	Epoch      int     `json:"epoch"`
	Updates    int     `json:"updates"`    // optimiser updates done in the run
	TrainLoss  float64 `json:"train_loss"` // mean per-sentence training loss (with dropout)
	TrainWords int     `json:"train_words"`
	// Dev scores (percent, disco-dop proper.prm, n3 decoder); 0 without dev
	// data.
	DevF1     float64 `json:"dev_f1"`
	DevDiscF1 float64 `json:"dev_disc_f1"`
	DevExact  float64 `json:"dev_exact"`
	DevPOS    float64 `json:"dev_pos_accuracy"`
	// TokensPerS is the training speed (forward, backward and update).
	TokensPerS  float64 `json:"tokens_per_s"`
	Seconds     float64 `json:"seconds"`      // training wall time of the epoch
	EvalSeconds float64 `json:"eval_seconds"` // dev parsing and evaluation
	LR          float64 `json:"lr"`           // learning rate of the epoch's last update
	BestDevF1   float64 `json:"best_dev_f1"`
	BestEpoch   int     `json:"best_epoch"`
	Time        string  `json:"time"` // wall clock at the end of the epoch (RFC 3339)
}

// logLine returns the JSON line of an epoch.
func logLine(e EpochLog) []byte {
	b, err := json.Marshal(e)
	if err != nil {
		panic("train: " + err.Error()) // plain numbers and strings always encode
	}
	return append(b, '\n')
}

// rewriteLog replaces the log file with the lines of history (atomically):
// a resumed run starts from the history its checkpoint holds, dropping lines
// written after that checkpoint.
func rewriteLog(path string, history []EpochLog) error {
	var buf bytes.Buffer
	for _, e := range history {
		buf.Write(logLine(e))
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	})
}

// appendLog appends one epoch's line to the log file.
func appendLog(path string, e EpochLog) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("train: log: %w", err)
	}
	if _, err := f.Write(logLine(e)); err != nil {
		f.Close()
		return fmt.Errorf("train: log: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("train: log: %w", err)
	}
	return nil
}
