CREATE TABLE "site_setting_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" text,
	"user_name" text NOT NULL,
	"setting" text NOT NULL,
	"old_value" text NOT NULL,
	"new_value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "sign_in_method" text;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "sign_up_open" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "site_setting_changes" ADD CONSTRAINT "site_setting_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_setting_changes_created_idx" ON "site_setting_changes" USING btree ("created_at");