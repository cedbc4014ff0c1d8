package browser

import "context"

// bg is the context of the worker's requests: a request is cancelled by
// terminating the worker.
var bg = context.Background()
