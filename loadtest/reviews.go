package loadtest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ReviewConfig is review traffic to run beside a load test: Workers
// clients that ask, again and again, for the review of every finished hand
// of the server's tables and every seat, as people opening replays would
// (a request every reviewPace each), until the context ends. They ask for
// far more reviews than the server's queue holds, so its review workers
// never rest for want of work.
type ReviewConfig struct {
	URL     string // the server, as Config.URL
	Workers int    // clients asking at once (1 to 100)
}

// ReviewReport counts the review requests by answer.
type ReviewReport struct {
	Requests int `json:"requests"`
	Done     int `json:"done"`    // 200: a review made (from the store once made)
	Pending  int `json:"pending"` // 202: queued or being worked out
	Busy     int `json:"busy"`    // 503 review_busy: the queue was full
	Errors   int `json:"errors"`  // anything else, or no answer
}

// reviewPace is the pause between one review client's requests: a person
// stepping through hands quickly.
const reviewPace = 100 * time.Millisecond

// Reviews runs cfg's review traffic until ctx ends and reports it.
func Reviews(ctx context.Context, cfg ReviewConfig) (*ReviewReport, error) {
	if cfg.Workers < 1 || cfg.Workers > 100 {
		return nil, fmt.Errorf("review workers must be 1 to 100, not %d", cfg.Workers)
	}
	base := strings.TrimRight(cfg.URL, "/")
	if !strings.HasPrefix(base, "http://") && !strings.HasPrefix(base, "https://") {
		base = "http://" + base
	}
	client := &http.Client{Timeout: 30 * time.Second}
	var requests, done, pending, busy, errs atomic.Int64
	get := func(path string, out any) int {
		req, err := http.NewRequestWithContext(ctx, "GET", base+path, nil)
		if err != nil {
			return 0
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0
		}
		defer resp.Body.Close()
		if out != nil && resp.StatusCode == http.StatusOK {
			if json.NewDecoder(resp.Body).Decode(out) != nil {
				return 0
			}
		} else {
			io.Copy(io.Discard, resp.Body) //nolint:errcheck
		}
		return resp.StatusCode
	}
	var wg sync.WaitGroup
	for w := range cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for offset := w * 20; ctx.Err() == nil; {
				var page struct {
					Tables []struct {
						ID    string     `json:"id"`
						Hands int        `json:"hands"`
						Seats []struct{} `json:"seats"`
					} `json:"tables"`
					Total int `json:"total"`
				}
				if get(fmt.Sprintf("/api/history?limit=20&offset=%d", offset), &page) != http.StatusOK {
					sleep(ctx, 200*time.Millisecond)
					continue
				}
				asked := false
				for _, t := range page.Tables {
					for n := 1; n <= t.Hands && ctx.Err() == nil; n++ {
						for seat := range t.Seats {
							asked = true
							code := get(fmt.Sprintf("/api/tables/%s/hands/%d/review?seat=%d", t.ID, n, seat), nil)
							if ctx.Err() != nil {
								return
							}
							sleep(ctx, reviewPace)
							requests.Add(1)
							switch code {
							case http.StatusOK:
								done.Add(1)
							case http.StatusAccepted:
								pending.Add(1)
							case http.StatusServiceUnavailable:
								busy.Add(1)
							default:
								errs.Add(1)
							}
						}
					}
				}
				if offset += 20; offset >= page.Total {
					offset = 0
				}
				if !asked { // nothing finished yet: wait for hands to end
					sleep(ctx, 200*time.Millisecond)
				}
			}
		}()
	}
	wg.Wait()
	return &ReviewReport{Requests: int(requests.Load()), Done: int(done.Load()), Pending: int(pending.Load()),
		Busy: int(busy.Load()), Errors: int(errs.Load())}, nil
}
