ALTER TABLE "site_settings" ADD COLUMN "first_app_admin_at" timestamp with time zone;--> statement-breakpoint
-- An installation that already has accounts has had its first account: the rule never fires there again.
UPDATE "site_settings" SET "first_app_admin_at" = now() WHERE EXISTS (SELECT 1 FROM "users" WHERE "is_anonymous" IS NOT TRUE);
