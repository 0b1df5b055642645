ALTER TABLE "site_settings" ALTER COLUMN "default_theme" SET DEFAULT 'system';--> statement-breakpoint
-- The shipped 'light' follows the new default; a theme an operator chose in the console (it left a change record) stays.
UPDATE "site_settings" SET "default_theme" = 'system' WHERE "default_theme" = 'light' AND NOT EXISTS (SELECT 1 FROM "site_setting_changes" WHERE "setting" = 'defaultTheme');
