// Package e2e holds the end-to-end tests: every function built and run
// under the Lambda Runtime Interface Emulator (internal/lambdarun) against
// DynamoDB Local, invoked with every events/*/*.json, and the checks that
// template.yaml, the Makefile and the functions agree.
package e2e
