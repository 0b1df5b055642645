CREATE TABLE "sso_providers" (
	"id" text PRIMARY KEY NOT NULL,
	"provider_id" text NOT NULL,
	"issuer" text NOT NULL,
	"oidc_config" text,
	"saml_config" text,
	"user_id" text,
	"organization_id" text NOT NULL,
	"domain" text NOT NULL,
	"domain_verified" boolean DEFAULT false NOT NULL,
	"verification_token" text NOT NULL,
	"domain_verified_at" timestamp with time zone,
	"require_sso" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sso_providers_provider_id_unique" UNIQUE("provider_id")
);
--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "auth_sso" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sso_providers" ADD CONSTRAINT "sso_providers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_providers" ADD CONSTRAINT "sso_providers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sso_providers_organization_idx" ON "sso_providers" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_providers_verified_domain_idx" ON "sso_providers" USING btree ("domain") WHERE "sso_providers"."domain_verified";--> statement-breakpoint
CREATE INDEX "sso_providers_domain_idx" ON "sso_providers" USING btree ("domain");