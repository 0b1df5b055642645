CREATE TABLE "backup_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"trigger" text NOT NULL,
	"status" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"location" text,
	"bytes" bigint,
	"error" text,
	CONSTRAINT "backup_runs_trigger" CHECK ("backup_runs"."trigger" in ('scheduled', 'command')),
	CONSTRAINT "backup_runs_status" CHECK ("backup_runs"."status" in ('running', 'succeeded', 'failed'))
);
--> statement-breakpoint
CREATE INDEX "backup_runs_started_idx" ON "backup_runs" USING btree ("started_at");