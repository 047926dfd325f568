package helper

import "podlab.dev/podlab/engine/scheduler/framework"

// DefaultNormalizeScore scales scores from [0, max(scores)] to
// [0, maxPriority], and with reverse subtracts each from maxPriority, as
// plugins/helper/normalize_score.go DefaultNormalizeScore: integer
// division, and when every score is 0 they stay 0 (or all become
// maxPriority when reversed). Scores are assumed non-negative.
func DefaultNormalizeScore(maxPriority int64, reverse bool, scores []framework.NodeScore) *framework.Status {
	var maxCount int64
	for i := range scores {
		if scores[i].Score > maxCount {
			maxCount = scores[i].Score
		}
	}
	if maxCount == 0 {
		if reverse {
			for i := range scores {
				scores[i].Score = maxPriority
			}
		}
		return nil
	}
	for i := range scores {
		score := maxPriority * scores[i].Score / maxCount
		if reverse {
			score = maxPriority - score
		}
		scores[i].Score = score
	}
	return nil
}
