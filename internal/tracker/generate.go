package tracker

// The pages' templates compile to the *_templ.go files beside them
// (committed; TestTemplatesGenerated fails when one is stale).
//go:generate go run github.com/a-h/templ/cmd/templ@v0.3.1100 generate
