ALTER TABLE "logs" DROP CONSTRAINT "logs_document_id_documents_id_fk";
--> statement-breakpoint
DROP INDEX "logs_company_status_created_idx";--> statement-breakpoint
DROP INDEX "logs_company_status_idx";--> statement-breakpoint
ALTER TABLE "logs" ALTER COLUMN "status" DROP NOT NULL;--> statement-breakpoint
-- Hand-written: a document's row shows its document's status from now on (read from the
-- document); its old copy goes, so that nothing can show two statuses for one document.
UPDATE "logs" SET "status" = NULL WHERE "document_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "logs" ADD CONSTRAINT "logs_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logs" ADD CONSTRAINT "logs_status_source_check" CHECK (("logs"."document_id" is null) = ("logs"."status" is not null));