CREATE TABLE "site_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"product_name" text DEFAULT 'Hatch' NOT NULL,
	"source_repository_url" text DEFAULT 'https://github.com/hatch-dev/hatch' NOT NULL,
	"default_theme" text DEFAULT 'light' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "site_settings_single_row" CHECK ("site_settings"."id" = 1),
	CONSTRAINT "site_settings_default_theme" CHECK ("site_settings"."default_theme" in ('light', 'dark', 'system'))
);
--> statement-breakpoint
INSERT INTO "site_settings" ("id") VALUES (1) ON CONFLICT DO NOTHING;
