package awsenv_test

import (
	"context"
	"strings"
	"testing"

	"croupier/internal/awsenv"
)

func TestConfigFromTheLambdaEnvironment(t *testing.T) {
	env := map[string]string{"AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_SESSION_TOKEN": "token"}
	cfg, err := awsenv.Config(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	creds, err := cfg.Credentials.Retrieve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Region != "eu-west-1" || creds.AccessKeyID != "AKIDEXAMPLE" || creds.SecretAccessKey != "secret" || creds.SessionToken != "token" {
		t.Errorf("config %+v, credentials %+v", cfg.Region, creds)
	}
	delete(env, "AWS_REGION")
	env["AWS_DEFAULT_REGION"] = "us-west-2"
	if cfg, err := awsenv.Config(func(k string) string { return env[k] }); err != nil || cfg.Region != "us-west-2" {
		t.Errorf("AWS_DEFAULT_REGION: %v %v", cfg.Region, err)
	}
	_, err = awsenv.Config(func(string) string { return "" })
	if err == nil || !strings.Contains(err.Error(), "AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY not set") {
		t.Errorf("an empty environment: %v", err)
	}
}
