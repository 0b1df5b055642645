ALTER TABLE "users" ADD COLUMN "last_active_at" timestamp with time zone;--> statement-breakpoint
-- Until now the sessions were the only trace of activity: start from the newest one each person still has.
UPDATE "users" SET "last_active_at" = (SELECT max("updated_at") FROM "sessions" WHERE "sessions"."user_id" = "users"."id");
