CREATE TABLE "app_settings" (
	"app" text NOT NULL,
	"key" text NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_settings_app_key_pk" PRIMARY KEY("app","key")
);
--> statement-breakpoint
-- The analytics switch becomes the analytics app's setting (src/features/analytics/settings.ts), keeping its value.
INSERT INTO "app_settings" ("app", "key", "value", "updated_at")
SELECT 'analytics', 'enabled', to_jsonb("analytics_enabled"), "updated_at" FROM "site_settings" WHERE "id" = 1;
--> statement-breakpoint
-- Its history reads under its new name.
UPDATE "site_setting_changes" SET "setting" = 'analytics.enabled' WHERE "setting" = 'analyticsEnabled';
-- The column stays until a later release: servers still on the previous one read it while a rolling restart runs
-- (docs: Deployment, keep each migration backward compatible). Nothing reads or writes it from this release on.