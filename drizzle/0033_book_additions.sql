CREATE TABLE "book_additions" (
	"organization_id" text NOT NULL,
	"slot" timestamp with time zone NOT NULL,
	"added" integer DEFAULT 0 NOT NULL,
	"deleted" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "book_additions_organization_id_slot_pk" PRIMARY KEY("organization_id","slot")
);
--> statement-breakpoint
ALTER TABLE "book_additions" ADD CONSTRAINT "book_additions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- book_additions (src/features/books/server/schema.ts) is kept by these triggers in the transaction that writes the
-- books, whichever code writes them: one statement per statement on books, grouped by quarter hour, so an import of
-- thousands of rows updates a handful of rows here. A purge or an organization's deletion only subtracts.
CREATE FUNCTION "book_additions_keep"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO book_additions AS kept (organization_id, slot, added, deleted)
    SELECT organization_id, date_bin('15 minutes', created_at, timestamptz '2000-01-01 00:00:00+00'), count(*), count(deleted_at)
    FROM new_books GROUP BY 1, 2
    ON CONFLICT (organization_id, slot) DO UPDATE
      SET added = kept.added + excluded.added, deleted = kept.deleted + excluded.deleted;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE book_additions AS kept SET added = kept.added - gone.added, deleted = kept.deleted - gone.deleted
    FROM (
      SELECT organization_id, date_bin('15 minutes', created_at, timestamptz '2000-01-01 00:00:00+00') AS slot,
        count(*) AS added, count(deleted_at) AS deleted
      FROM old_books GROUP BY 1, 2
    ) AS gone
    WHERE kept.organization_id = gone.organization_id AND kept.slot = gone.slot;
  ELSE
    -- An edit that leaves a book's organization, creation time and deletion as they were changes nothing here.
    WITH changed AS (
      SELECT o.organization_id AS old_organization, o.created_at AS old_created, o.deleted_at IS NOT NULL AS old_deleted,
        n.organization_id AS new_organization, n.created_at AS new_created, n.deleted_at IS NOT NULL AS new_deleted
      FROM old_books o JOIN new_books n ON n.id = o.id
      WHERE (o.organization_id, o.created_at, o.deleted_at IS NULL)
        IS DISTINCT FROM (n.organization_id, n.created_at, n.deleted_at IS NULL)
    ), moves AS (
      SELECT old_organization AS organization_id, old_created AS created_at, -1 AS added, -old_deleted::int AS deleted
      FROM changed
      UNION ALL
      SELECT new_organization, new_created, 1, new_deleted::int FROM changed
    )
    INSERT INTO book_additions AS kept (organization_id, slot, added, deleted)
    SELECT organization_id, date_bin('15 minutes', created_at, timestamptz '2000-01-01 00:00:00+00'), sum(added), sum(deleted)
    FROM moves GROUP BY 1, 2 HAVING sum(added) <> 0 OR sum(deleted) <> 0
    ON CONFLICT (organization_id, slot) DO UPDATE
      SET added = kept.added + excluded.added, deleted = kept.deleted + excluded.deleted;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "book_additions_on_insert" AFTER INSERT ON "books" REFERENCING NEW TABLE AS new_books
  FOR EACH STATEMENT EXECUTE FUNCTION "book_additions_keep"();
--> statement-breakpoint
CREATE TRIGGER "book_additions_on_update" AFTER UPDATE ON "books" REFERENCING OLD TABLE AS old_books NEW TABLE AS new_books
  FOR EACH STATEMENT EXECUTE FUNCTION "book_additions_keep"();
--> statement-breakpoint
CREATE TRIGGER "book_additions_on_delete" AFTER DELETE ON "books" REFERENCING OLD TABLE AS old_books
  FOR EACH STATEMENT EXECUTE FUNCTION "book_additions_keep"();
--> statement-breakpoint
-- The books written before this release, counted under the triggers' lock on books: none is counted twice or missed.
INSERT INTO book_additions (organization_id, slot, added, deleted)
SELECT organization_id, date_bin('15 minutes', created_at, timestamptz '2000-01-01 00:00:00+00'), count(*), count(deleted_at)
FROM books GROUP BY 1, 2;
