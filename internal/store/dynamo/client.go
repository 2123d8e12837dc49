package dynamo

import (
	"context"
	"croupier/internal/awsenv"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// LocalRegion and the local credentials are what every client of a
// non-AWS endpoint uses. DynamoDB Local keeps one database per access key and
// region (unless started with -sharedDb), so all processes talking to one
// instance (tests, the local server, functions under the emulator) must agree.
const (
	LocalRegion    = "us-east-1"
	localAccessKey = "local"
	localSecretKey = "local"
)

// NewClient returns a DynamoDB client. With endpoint "" it is the AWS client
// of the environment's region and credentials (awsenv: what Lambda sets for
// a function). With an endpoint that is not an amazonaws.com host (DynamoDB
// Local) it uses fixed dummy credentials and region LocalRegion, and skips
// the response CRC32 check, because DynamoDB Local 3.3 sends an X-Amz-Crc32
// the SDK rejects. An amazonaws.com endpoint keeps the environment's
// credentials and all checks.
func NewClient(ctx context.Context, endpoint string) (*dynamodb.Client, error) {
	if endpoint == "" {
		cfg, err := awsenv.Config(os.Getenv)
		if err != nil {
			return nil, fmt.Errorf("dynamo: %w", err)
		}
		return dynamodb.NewFromConfig(cfg), nil
	}
	u, err := url.Parse(endpoint)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("dynamo: endpoint %q is not a URL like http://127.0.0.1:8000", endpoint)
	}
	if isAWSHost(u.Hostname()) {
		cfg, err := awsenv.Config(os.Getenv)
		if err != nil {
			return nil, fmt.Errorf("dynamo: %w", err)
		}
		return dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) { o.BaseEndpoint = aws.String(endpoint) }), nil
	}
	cfg := aws.Config{
		Region:      LocalRegion,
		Credentials: credentials.NewStaticCredentialsProvider(localAccessKey, localSecretKey, ""),
	}
	return dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		o.BaseEndpoint = aws.String(endpoint)
		o.DisableValidateResponseChecksum = true
	}), nil
}

func isAWSHost(host string) bool {
	host = strings.ToLower(host)
	return strings.HasSuffix(host, ".amazonaws.com") || strings.HasSuffix(host, ".amazonaws.com.cn")
}
