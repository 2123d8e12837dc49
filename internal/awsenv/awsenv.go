// Package awsenv is the AWS configuration of a Lambda function: region and
// credentials from the environment the Lambda runtime sets
// (AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN:
// the execution role's credentials for the life of the execution
// environment). It replaces the SDK's default configuration chain, whose
// providers (shared config files, SSO, STS web identity, IMDS, processes)
// a function never uses and which added megabytes to every bootstrap
// (issue 16). Outside Lambda, export the same variables (e.g. `aws
// configure export-credentials --format env`).
package awsenv

import (
	"errors"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// Config returns the AWS configuration getenv describes, or an error
// saying which variable is missing.
func Config(getenv func(string) string) (aws.Config, error) {
	region := strings.TrimSpace(getenv("AWS_REGION"))
	if region == "" {
		region = strings.TrimSpace(getenv("AWS_DEFAULT_REGION"))
	}
	key, secret := strings.TrimSpace(getenv("AWS_ACCESS_KEY_ID")), strings.TrimSpace(getenv("AWS_SECRET_ACCESS_KEY"))
	var missing []string
	if region == "" {
		missing = append(missing, "AWS_REGION")
	}
	if key == "" {
		missing = append(missing, "AWS_ACCESS_KEY_ID")
	}
	if secret == "" {
		missing = append(missing, "AWS_SECRET_ACCESS_KEY")
	}
	if len(missing) > 0 {
		return aws.Config{}, errors.New("awsenv: " + strings.Join(missing, ", ") +
			" not set: Lambda sets them for a function; elsewhere export them (aws configure export-credentials --format env)")
	}
	return aws.Config{
		Region:      region,
		Credentials: credentials.NewStaticCredentialsProvider(key, secret, strings.TrimSpace(getenv("AWS_SESSION_TOKEN"))),
	}, nil
}
