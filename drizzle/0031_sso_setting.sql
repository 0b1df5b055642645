-- The single sign-on switch becomes the sso app's setting (src/features/sso/settings.ts), keeping its value.
INSERT INTO "app_settings" ("app", "key", "value", "updated_at")
SELECT 'sso', 'enabled', to_jsonb("auth_sso"), "updated_at" FROM "site_settings" WHERE "id" = 1
ON CONFLICT ("app", "key") DO NOTHING;
--> statement-breakpoint
-- Its history reads under its new name.
UPDATE "site_setting_changes" SET "setting" = 'sso.enabled' WHERE "setting" = 'authSso';
-- The column stays until a later release: servers still on the previous one read it while a rolling restart runs
-- (docs: Deployment, keep each migration backward compatible). Nothing reads or writes it from this release on.
