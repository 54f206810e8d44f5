package client

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
)

// Suggestions returns the configuration changes the controller's history
// suggests.
func (c *Client) Suggestions(ctx context.Context) (*api.SuggestionsResponse, error) {
	var out api.SuggestionsResponse
	return &out, c.call(ctx, methodGet, api.PathSuggestions, nil, &out)
}

// WebToken asks for a token that opens the web dashboard as the caller.
func (c *Client) WebToken(ctx context.Context, req *api.WebTokenRequest) (*api.WebTokenResponse, error) {
	var out api.WebTokenResponse
	return &out, c.call(ctx, methodPost, api.PathWebToken, req, &out)
}
